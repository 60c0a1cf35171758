import FolioGraphics
import FolioModel

extension Theme {
    /// This theme with `spec` applied: the one place a theme is assembled. `spec` is checked and its
    /// logo read as `assets` allows; errors name `field` (`theme.logo`, `--theme.bodySize`).
    package func applying(_ spec: ThemeSpec?, assets: AssetAccess, field: String) throws -> Theme {
        guard let spec else { return self }
        try spec.validate(path: field)
        let logo = try spec.logo.map {
            try ImageLoader.load(ImageBlock(source: .file($0)), path: field, assets: assets, field: "\(field).logo")
        }
        return applying(spec, logo: logo)
    }
}
