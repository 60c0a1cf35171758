@_exported import FolioCharts
@_exported import FolioGraphics
@_exported import FolioModel
