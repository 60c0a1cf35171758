import Folio
import FolioServer
import Foundation

/// What the fuzzer (`make fuzz FUZZ_SURFACE=service`) feeds the render service's request path
/// through, without a socket: a request target (`/v1/render?format=html&html=shadow` or
/// `/v1/templates/NAME/render?…`) on the first line, a `Content-Type` on the second and the body
/// after it; the query is read, the media type and template checked and the body rendered as
/// the service does, with the templates (and assets) in `Templates/`.
package enum ServiceFuzzHarness {
    /// The service's rendering with the shipped templates and their folder as assets (as
    /// `folio serve --templates Templates --assets Templates`), made once.
    private static let rendering: DocumentRendering = {
        let templates = (try? TemplateLibrary(directory: "Templates")) ?? TemplateLibrary()
        let assets = (try? AssetFolder(path: "Templates")).map { AssetAccess.confined($0) } ?? .embeddedOnly
        return DocumentRendering(theme: .standard, assets: assets, pageTemplate: nil, templates: templates, signer: nil)
    }()

    /// Runs one input; returns the problem's detail (or the error), or nil when it rendered.
    @discardableResult
    package static func run(_ data: Data) -> String? {
        let parts = data.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        let target = String(decoding: parts.first ?? Data(), as: UTF8.self)
        let contentType = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
        let body = parts.count > 2 ? Data(parts[2]) : Data()
        do {
            let (path, query) = split(target)
            let parameters = try RenderParameters(query: query)
            let mediaType = RenderService.mediaType(contentType: contentType)
            let input: RenderRequest.Input
            let pieces = path.split(separator: "/", omittingEmptySubsequences: false)
            if path == "/v1/render" {
                input = .document(body, try RenderService.documentFormat(mediaType: mediaType))
            } else if pieces.count == 5, pieces[1] == "v1", pieces[2] == "templates", pieces[4] == "render" {
                let name = String(pieces[3])
                guard TemplateLibrary.isValidName(name), rendering.templates[name] != nil else {
                    throw Problem.notFound("no template \"\(Route.shown(name))\"")
                }
                guard mediaType == "application/json" else {
                    throw Problem.unsupportedMediaType("the body must be one data record as application/json")
                }
                input = .template(name: name, record: body)
            } else {
                throw Problem.notFound("no route")
            }
            _ = try rendering.render(RenderRequest(input: input, parameters: parameters))
            return nil
        } catch let problem as Problem {
            return problem.detail
        } catch {
            return "\(error)"
        }
    }

    /// The path and the percent-decoded query pairs of a request target.
    private static func split(_ target: String) -> (String, [(name: String, value: String)]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, []) }
        let query = target[target.index(after: mark)...].split(separator: "&").map { pair -> (name: String, value: String) in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring?) -> String {
                let plus = (text ?? "").replacingOccurrences(of: "+", with: " ")
                return plus.removingPercentEncoding ?? plus
            }
            return (decoded(halves.first), decoded(halves.count > 1 ? halves[1] : nil))
        }
        return (String(target[..<mark]), query)
    }
}
