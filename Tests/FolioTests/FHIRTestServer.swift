import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import _CryptoExtras

@testable import FolioModel

/// A FHIR server on loopback that speaks the Bulk Data Access IG and SMART Backend Services as the
/// servers Folio meets do (HAPI, Epic, Oracle Health, Medplum), with their faults on request:
/// `Retry-After` and `X-Progress` while an export runs, 429 and transient 500s, links that expire,
/// gzip, `requiresAccessToken` true or false, a kick-off taken by GET only or POST only, manifests
/// in pages, tokens that live 60 s (or less), replayed `jti`s and unknown `kid`s refused.
final class FHIRTestServer: @unchecked Sendable {
    /// How the server behaves.
    struct Behaviour {
        var requiresAccessToken = true
        /// The kick-off methods taken: GET, POST or both.
        var kickOffMethods: Set<String> = ["GET", "POST"]
        /// Polls answered 202 before the manifest.
        var pollsBeforeReady = 1
        /// The Retry-After of a 202, in seconds.
        var retryAfter = 1
        /// The first poll is answered 429 (with Retry-After: 1).
        var tooManyRequestsOnce = false
        /// Each file's first download is answered 500.
        var serverErrorOnceEachFile = false
        /// The links of the first manifest have expired (410): the manifest asked for again gives live ones.
        var linksExpire = false
        /// Files sent gzip-encoded when asked for.
        var gzip = false
        /// Output entries per manifest page (0: one page).
        var manifestPageSize = 0
        /// The lifetime of a token, in seconds.
        var tokenLifetime = 60
        /// Split each type into files of at most this many resources (0: one file per type).
        var resourcesPerFile = 0
        /// Bytes per second a file is sent at (0: as fast as it goes).
        var throttle = 0
        /// Whether requests must carry a token at all.
        var requiresAuthorization = true
        /// The Patient operations the CapabilityStatement names (`everything`, `summary`).
        var patientOperations: [String] = ["everything"]
        /// What `Patient/ID/$summary` answers (a document Bundle).
        var summaryBundle = Data()
        /// Search results per page.
        var pageSize = 25
        /// Whether the CapabilityStatement offers a conditional update of DocumentReference (else only conditional create).
        var conditionalUpdate = true
    }

    /// A registered client.
    enum ClientKeyKind {
        case rsa(_RSA.Signing.PublicKey)
        case ec(P384.Signing.PublicKey)
    }

    struct Export {
        var id: String
        var polls = 0
        var deleted = false
        var since: Date?
        var types: [String]
        var method: String
        var path: String
        var parameters: [String]
        var linkGeneration = 0
        var transactionTime = FHIRTestServer.instantText(Date())
    }

    struct State {
        var resources: [String: [(line: String, added: Date)]] = [:]
        var exports: [String: Export] = [:]
        var usedJTIs: Set<String> = []
        var tokens: [String: Date] = [:]
        var tokenRequests = 0
        var refusedAssertions: [String] = []
        var downloads: [String: Int] = [:]
        var deletes: [String] = []
        var unauthorized = 0
        var polls = 0
        var fileAnswers: [String: Int] = [:]
        /// DocumentReferences posted, by id (their JSON).
        var documentReferences: [String: Data] = [:]
        var documentRequests: [String] = []
    }

    var behaviour: Behaviour
    let state = Locked(StateBox())
    let clients: [String: (clientID: String, key: ClientKeyKind)]
    private var task: Task<Void, any Error>?
    private(set) var port = 0

    /// `StateBox` keeps the non-Sendable state under the one lock.
    final class StateBox: @unchecked Sendable {
        var value = State()
    }

    /// A server holding the NDJSON files of `folder` (one resource type each), accepting `clients` (by kid).
    init(folder: URL, behaviour: Behaviour = Behaviour(), clients: [String: (clientID: String, key: ClientKeyKind)]) throws {
        self.behaviour = behaviour
        self.clients = clients
        let long = Date(timeIntervalSince1970: 1_700_000_000)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".ndjson") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let lines = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
            let type = String(name.dropLast(7))
            state.withLock { $0.value.resources[type] = lines.map { ($0, long) } }
        }
    }

    static let preferField = HTTPField.Name.named("Prefer")
    static let contentLocationField = HTTPField.Name.named("Content-Location")
    static let retryAfterField = HTTPField.Name.named("Retry-After")
    static let progressField = HTTPField.Name.named("X-Progress")
    static let ifNoneExistField = HTTPField.Name.named("If-None-Exist")
    static let locationField = HTTPField.Name.named("Location")

    /// Hummingbird's log, quiet: a test's stop cancels the server, which it would log as an error.
    static let quietLogger: Logger = {
        var logger = Logger(label: "fhir-test-server")
        logger.logLevel = .critical
        return logger
    }()

    var base: String { "http://127.0.0.1:\(port)/fhir" }

    /// Starts listening on a free loopback port.
    func start() throws {
        let ready = DispatchSemaphore(value: 0)
        let portBox = Locked(0)
        let router = Router()
        router.on("**", method: .get) { [self] request, _ in try await self.answer(request) }
        router.on("**", method: .post) { [self] request, _ in try await self.answer(request) }
        router.on("**", method: .delete) { [self] request, _ in try await self.answer(request) }
        router.on("**", method: .put) { [self] request, _ in try await self.answer(request) }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portBox.set(channel.localAddress?.port ?? 0)
                ready.signal()
            }, logger: Self.quietLogger)
        task = Task { try await app.runService() }
        guard ready.wait(timeout: .now() + 30) == .success else { throw TestServerError("the test server did not start") }
        port = portBox.value
    }

    /// Stops it.
    func stop() {
        task?.cancel()
        task = nil
    }

    /// Adds a resource of `type` now (an incremental export sees it).
    func add(_ type: String, line: String) {
        state.withLock { $0.value.resources[type, default: []].append((line, Date())) }
    }

    func snapshot<T: Sendable>(_ read: (State) -> T) -> T { state.withLock { read($0.value) } }

    // MARK: Answers

    private func answer(_ request: Request) async throws -> Response {
        let path = request.uri.path
        guard path.hasPrefix("/fhir/") else { return text(.notFound, "not found") }
        let rest = String(path.dropFirst(6))
        if rest == ".well-known/smart-configuration" {
            return json(
                .ok,
                [
                    "token_endpoint": "\(base)/auth/token", "grant_types_supported": ["client_credentials"],
                    "token_endpoint_auth_methods_supported": ["private_key_jwt"],
                    "token_endpoint_auth_signing_alg_values_supported": ["RS384", "ES384"],
                    "capabilities": ["client-confidential-asymmetric", "permission-v2"],
                    "scopes_supported": ["system/*.rs", "system/DocumentReference.c"],
                ])
        }
        if rest == "auth/token", request.method == .post {
            let body = try await request.body.collect(upTo: 1 << 20)
            return token(String(buffer: body))
        }
        if behaviour.requiresAuthorization, !authorized(request) {
            state.withLock { $0.value.unauthorized += 1 }
            return outcome(.unauthorized, "a valid bearer token is required")
        }
        if rest == "Patient/$export" || (rest.hasPrefix("Group/") && rest.hasSuffix("/$export")) {
            let body = request.method == .post ? String(buffer: try await request.body.collect(upTo: 1 << 20)) : ""
            return kickOff(request, path: rest, body: body)
        }
        if rest == "metadata" {
            let resource: [String: Any] = [
                "type": "DocumentReference", "conditionalCreate": true, "conditionalUpdate": behaviour.conditionalUpdate,
            ]
            let patient: [String: Any] = [
                "type": "Patient",
                "operation": behaviour.patientOperations.map {
                    ["name": $0, "definition": "http://hl7.org/fhir/OperationDefinition/Patient-\($0)"]
                },
            ]
            return json(.ok, ["resourceType": "CapabilityStatement", "rest": [["mode": "server", "resource": [resource, patient]]]])
        }
        if rest.hasPrefix("DocumentReference") {
            let body = try await request.body.collect(upTo: 64 << 20)
            return documentReference(request, body: Data(buffer: body))
        }
        if let record = patientRecord(rest, request: request) { return record }
        if rest.hasPrefix("status/") { return status(String(rest.dropFirst(7)), method: request.method) }
        if rest.hasPrefix("files/") { return file(String(rest.dropFirst(6)), request: request) }
        if rest.hasPrefix("manifest-page/") { return manifestPage(String(rest.dropFirst(14))) }
        return outcome(.notFound, "no such endpoint \(rest)")
    }

    private func authorized(_ request: Request) -> Bool {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return false }
        let token = String(header.dropFirst(7))
        return state.withLock { box in (box.value.tokens[token].map { $0 > Date() }) ?? false }
    }

    private func token(_ form: String) -> Response {
        var fields: [String: String] = [:]
        for pair in form.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        state.withLock { $0.value.tokenRequests += 1 }
        func refuse(_ why: String) -> Response {
            state.withLock { $0.value.refusedAssertions.append(why) }
            return json(.badRequest, ["error": "invalid_client", "error_description": why])
        }
        guard fields["grant_type"] == "client_credentials",
            fields["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            let assertion = fields["client_assertion"], fields["scope"]?.isEmpty == false
        else { return json(.badRequest, ["error": "invalid_request"]) }
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.base64url(parts[0]), let claimsData = Self.base64url(parts[1]),
            let signature = Self.base64url(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any]
        else { return refuse("malformed assertion") }
        guard let kid = header["kid"] as? String, let client = clients[kid] else { return refuse("unknown kid") }
        let input = Data("\(parts[0]).\(parts[1])".utf8)
        let valid: Bool
        switch (client.key, header["alg"] as? String) {
        case (.rsa(let key), "RS384"):
            valid = key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA384.hash(data: input), padding: .insecurePKCS1v1_5)
        case (.ec(let key), "ES384"):
            valid = (try? P384.Signing.ECDSASignature(rawRepresentation: signature)).map { key.isValidSignature($0, for: input) } ?? false
        default: valid = false
        }
        guard valid else { return refuse("bad signature") }
        let now = Date().timeIntervalSince1970
        guard claims["iss"] as? String == client.clientID, claims["sub"] as? String == client.clientID else { return refuse("iss/sub") }
        guard claims["aud"] as? String == "\(base)/auth/token" else { return refuse("aud") }
        guard let exp = (claims["exp"] as? NSNumber)?.doubleValue, exp > now, exp <= now + 300 else { return refuse("exp") }
        guard let jti = claims["jti"] as? String else { return refuse("no jti") }
        let fresh = state.withLock { box in box.value.usedJTIs.insert(jti).inserted }
        guard fresh else { return refuse("replayed jti") }
        let token = UUID().uuidString
        let lifetime = behaviour.tokenLifetime
        state.withLock { $0.value.tokens[token] = Date().addingTimeInterval(Double(lifetime)) }
        return json(.ok, ["access_token": token, "token_type": "bearer", "expires_in": lifetime, "scope": fields["scope"] ?? ""])
    }

    private func kickOff(_ request: Request, path: String, body: String) -> Response {
        let method = request.method == .post ? "POST" : "GET"
        guard behaviour.kickOffMethods.contains(method) else { return outcome(.methodNotAllowed, "kick-off by \(method) is not supported") }
        guard request.headers[Self.preferField] == "respond-async" else { return outcome(.badRequest, "Prefer: respond-async") }
        var since: Date?
        var types: [String] = []
        var parameters: [String] = []
        if method == "POST" {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any],
                object["resourceType"] as? String == "Parameters"
            else { return outcome(.badRequest, "expected a Parameters resource") }
            for parameter in object["parameter"] as? [[String: Any]] ?? [] {
                let name = parameter["name"] as? String ?? ""
                parameters.append(name)
                if name == "_type" { types = (parameter["valueString"] as? String ?? "").split(separator: ",").map(String.init) }
                if name == "_since" { since = (parameter["valueInstant"] as? String).flatMap(Self.instant) }
            }
        } else {
            for item in request.uri.queryParameters {
                let name = String(item.key)
                parameters.append(name)
                let value = String(item.value).removingPercentEncoding ?? String(item.value)
                if name == "_type" { types = value.split(separator: ",").map(String.init) }
                if name == "_since" { since = Self.instant(value) }
            }
        }
        let id = UUID().uuidString.lowercased()
        state.withLock {
            $0.value.exports[id] = Export(id: id, since: since, types: types, method: method, path: path, parameters: parameters)
        }
        return Response(status: .accepted, headers: [Self.contentLocationField: "\(base)/status/\(id)"])
    }

    private func status(_ id: String, method: HTTPRequest.Method) -> Response {
        if method == .delete {
            let known = state.withLock { box -> Bool in
                box.value.deletes.append(id)
                guard box.value.exports[id] != nil else { return false }
                box.value.exports[id]?.deleted = true
                return true
            }
            return known ? Response(status: .accepted) : outcome(.notFound, "no such export")
        }
        let polled = state.withLock { box -> (Export?, Int) in
            box.value.polls += 1
            box.value.exports[id]?.polls += 1
            return (box.value.exports[id], box.value.polls)
        }
        guard let export = polled.0, !export.deleted else { return outcome(.notFound, "no such export") }
        if behaviour.tooManyRequestsOnce, polled.1 == 1 {
            return Response(status: .tooManyRequests, headers: [Self.retryAfterField: "1"])
        }
        if export.polls <= behaviour.pollsBeforeReady {
            let percent = 100 * export.polls / (behaviour.pollsBeforeReady + 1)
            return Response(
                status: .accepted,
                headers: [Self.retryAfterField: "\(behaviour.retryAfter)", Self.progressField: "\(percent)% done"])
        }
        state.withLock { $0.value.exports[id]?.linkGeneration += 1 }
        return manifestPage("\(id)/0")
    }

    /// A conditional update (`PUT DocumentReference?identifier=…`) or create (`POST` with `If-None-Exist`).
    private func documentReference(_ request: Request, body: Data) -> Response {
        guard var resource = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            resource["resourceType"] as? String == "DocumentReference"
        else { return outcome(.badRequest, "expected a DocumentReference") }
        let search: String?
        if request.method == .put {
            guard behaviour.conditionalUpdate else { return outcome(.methodNotAllowed, "no conditional update") }
            search = request.uri.queryParameters["identifier"].map { String($0).removingPercentEncoding ?? String($0) }
        } else {
            search = request.headers[Self.ifNoneExistField].flatMap {
                $0.hasPrefix("identifier=") ? String($0.dropFirst(11)).removingPercentEncoding : nil
            }
        }
        let wanted = search ?? ""
        let found = state.withLock { box -> String? in
            box.value.documentRequests.append("\(request.method.rawValue) \(wanted)")
            return box.value.documentReferences.first { _, data in
                let stored = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
                let identifiers = stored?["identifier"] as? [[String: Any]] ?? []
                return identifiers.contains { "\($0["system"] ?? "")|\($0["value"] ?? "")" == wanted }
            }?.key
        }
        if request.method == .post, let found {
            return Response(status: .ok, headers: [Self.locationField: "\(base)/DocumentReference/\(found)"])
        }
        let id = found ?? UUID().uuidString.lowercased()
        resource["id"] = id
        let data = (try? JSONSerialization.data(withJSONObject: resource)) ?? Data()
        state.withLock { $0.value.documentReferences[id] = data }
        return Response(status: found == nil ? .created : .ok, headers: [Self.locationField: "\(base)/DocumentReference/\(id)/_history/1"])
    }

    /// `Patient/ID/$everything`, `Patient/ID/$summary`, `Patient?_id=ID` and `TYPE?patient=ID`, in pages.
    private func patientRecord(_ rest: String, request: Request) -> Response? {
        let parts = rest.split(separator: "/").map(String.init)
        let query = request.uri.queryParameters
        let page = query["page"].flatMap { Int(String($0)) } ?? 0
        if parts.count == 3, parts[0] == "Patient", parts[2] == "$summary" {
            guard behaviour.patientOperations.contains("summary") else { return outcome(.notFound, "no $summary") }
            return Response(
                status: .ok, headers: [.contentType: "application/fhir+json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: behaviour.summaryBundle)))
        }
        if parts.count == 3, parts[0] == "Patient", parts[2] == "$everything" {
            guard behaviour.patientOperations.contains("everything") else { return outcome(.notFound, "no $everything") }
            let lines = state.withLock { box in
                box.value.resources.keys.sorted().flatMap { type in (box.value.resources[type] ?? []).map(\.line) }
            }
            return searchset(lines.filter { Self.belongs($0, to: parts[1]) }, page: page, next: "\(base)/\(rest)?page=\(page + 1)")
        }
        guard parts.count == 1, BulkExportRequestShape.isType(parts[0]), request.method == .get else { return nil }
        let type = parts[0]
        let lines = state.withLock { box in box.value.resources[type].map { $0.map(\.line) } }
        guard let lines else { return outcome(.badRequest, "\(type) is not supported") }
        let id = query["_id"].map(String.init) ?? query["patient"].map(String.init) ?? ""
        let matching = lines.filter { type == "Patient" ? Self.isPatient($0, id) : Self.belongs($0, to: id) }
        let search = query["_id"] != nil ? "_id=\(id)" : "patient=\(id)"
        return searchset(matching, page: page, next: "\(base)/\(type)?\(search)&page=\(page + 1)")
    }

    private func searchset(_ lines: [String], page: Int, next: String) -> Response {
        let size = behaviour.pageSize
        let slice = lines.dropFirst(page * size).prefix(size)
        var bundle: [String: Any] = [
            "resourceType": "Bundle", "type": "searchset", "total": lines.count,
            "entry": slice.compactMap { line -> [String: Any]? in
                guard let resource = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return nil }
                return [
                    "fullUrl": "\(base)/\(resource["resourceType"] ?? "")/\(resource["id"] ?? "")", "resource": resource,
                    "search": ["mode": "match"],
                ]
            },
        ]
        if (page + 1) * size < lines.count { bundle["link"] = [["relation": "next", "url": next]] }
        return json(.ok, bundle)
    }

    static func isPatient(_ line: String, _ id: String) -> Bool {
        let resource = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        return resource?["resourceType"] as? String == "Patient" && resource?["id"] as? String == id
    }

    static func belongs(_ line: String, to id: String) -> Bool {
        isPatient(line, id) || line.contains(#""Patient/\#(id)""#)
    }

    /// The files of an export: (type, resources) in the manifest's order.
    private func files(of export: Export) -> [(type: String, lines: [String])] {
        state.withLock { box in
            var result: [(String, [String])] = []
            for type in box.value.resources.keys.sorted() where export.types.isEmpty || export.types.contains(type) {
                let lines = (box.value.resources[type] ?? []).filter { entry in export.since.map { entry.added > $0 } ?? true }.map(\.line)
                if lines.isEmpty { continue }
                let size = behaviour.resourcesPerFile > 0 ? behaviour.resourcesPerFile : max(lines.count, 1)
                for start in stride(from: 0, to: lines.count, by: size) {
                    result.append((type, Array(lines[start..<min(start + size, lines.count)])))
                }
            }
            return result
        }
    }

    private func manifestPage(_ reference: String) -> Response {
        let parts = reference.split(separator: "/")
        guard parts.count == 2, let page = Int(parts[1]), let export = state.withLock({ $0.value.exports[String(parts[0])] }) else {
            return outcome(.notFound, "no such page")
        }
        let all = files(of: export)
        let size = behaviour.manifestPageSize > 0 ? behaviour.manifestPageSize : max(all.count, 1)
        let slice = all.indices.dropFirst(page * size).prefix(size)
        var manifest: [String: Any] = [
            "transactionTime": export.transactionTime, "request": "\(base)/\(export.path)",
            "requiresAccessToken": behaviour.requiresAccessToken,
            "output": slice.map { index in
                [
                    "type": all[index].type, "count": all[index].lines.count,
                    "url": "\(base)/files/\(export.id)/\(index)?g=\(export.linkGeneration)",
                ] as [String: Any]
            },
            "error": [] as [Any],
        ]
        if slice.upperBound < all.count {
            manifest["link"] = [["relation": "next", "url": "\(base)/manifest-page/\(export.id)/\(page + 1)"]]
        }
        return json(.ok, manifest)
    }

    private func file(_ reference: String, request: Request) -> Response {
        let parts = reference.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[1]), let export = state.withLock({ $0.value.exports[String(parts[0])] }) else {
            return outcome(.notFound, "no such file")
        }
        let all = files(of: export)
        guard index < all.count else { return outcome(.notFound, "no such file") }
        let generation = request.uri.queryParameters["g"].flatMap { Int(String($0)) } ?? -1
        let key = "\(export.id)/\(index)"
        let seen = state.withLock { box -> Int in
            box.value.fileAnswers[key, default: 0] += 1
            return box.value.fileAnswers[key] ?? 1
        }
        if behaviour.serverErrorOnceEachFile, seen == 1 { return outcome(.internalServerError, "transient failure") }
        if behaviour.linksExpire, generation < 2 {
            return outcome(.gone, "this link has expired")
        }
        state.withLock { $0.value.downloads[all[index].type + "#\(index)", default: 0] += 1 }
        var bytes = Data(all[index].lines.map { $0 + "\n" }.joined().utf8)
        var headers: HTTPFields = [.contentType: "application/fhir+ndjson"]
        if behaviour.gzip, request.headers[.acceptEncoding]?.contains("gzip") == true, let zipped = Self.gzip(bytes) {
            bytes = zipped
            headers[.contentEncoding] = "gzip"
        }
        let throttle = behaviour.throttle
        guard throttle > 0 else { return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))) }
        let chunks = stride(from: 0, to: bytes.count, by: max(1, throttle / 10)).map {
            bytes[$0..<min($0 + max(1, throttle / 10), bytes.count)]
        }
        let body = ResponseBody { writer in
            for chunk in chunks {
                try await writer.write(ByteBuffer(bytes: chunk))
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    // MARK: Helpers

    private func json(_ status: HTTPResponse.Status, _ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    private func outcome(_ status: HTTPResponse.Status, _ words: String) -> Response {
        json(
            status,
            ["resourceType": "OperationOutcome", "issue": [["severity": "error", "code": "processing", "diagnostics": words]]])
    }

    private func text(_ status: HTTPResponse.Status, _ words: String) -> Response {
        Response(status: status, body: ResponseBody(byteBuffer: ByteBuffer(string: words)))
    }

    static func base64url(_ text: Substring) -> Data? {
        var base = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base.count % 4 != 0 { base += "=" }
        return Data(base64Encoded: base)
    }

    static func instant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static func instantText(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func gzip(_ data: Data) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        guard (try? process.run()) != nil else { return nil }
        let writer = Thread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let zipped = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? zipped : nil
    }
}

extension HTTPField.Name {
    /// The field `name` (a valid token, else `X-Invalid`).
    static func named(_ name: String) -> HTTPField.Name { HTTPField.Name(name) ?? HTTPField.Name("X-Invalid") ?? .contentType }
}

/// A resource type's shape (an upper-case letter, then letters).
enum BulkExportRequestShape {
    static func isType(_ text: String) -> Bool {
        guard let first = text.first, first.isUppercase else { return false }
        return text.allSatisfy { $0.isASCII && $0.isLetter }
    }
}

struct TestServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
