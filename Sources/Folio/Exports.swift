@_exported import FolioCharts
@_exported import FolioData
@_exported import FolioFHIR
@_exported import FolioGraphics
@_exported import FolioHTML
@_exported import FolioInput
@_exported import FolioModel
@_exported import FolioPDF
