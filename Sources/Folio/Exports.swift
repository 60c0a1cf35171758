// The render API's own types, one import for a program that makes documents in Swift and writes
// them as PDF or HTML (reading documents from text is FolioTemplate's; FHIR, spreadsheets, batch
// and the service each have their module).
@_exported import FolioCharts
@_exported import FolioGraphics
@_exported import FolioHTML
@_exported import FolioInput
@_exported import FolioModel
@_exported import FolioPDF
