import Foundation
import XCTest
import Yams

@testable import FolioServer

/// The systemd unit and the Kubernetes manifests in deploy/: well-formed, and saying only what
/// `folio serve` understands.
final class DeploymentManifestTests: XCTestCase {
    private let deploy = TestSupport.root.appendingPathComponent("deploy")

    /// The long options `folio serve --help` lists.
    private func serveFlags() throws -> Set<String> { try flags(of: "serve") }

    /// The long options `folio COMMAND --help` lists.
    private func flags(of command: String) throws -> Set<String> {
        let help = try TestSupport.run(TestSupport.folioBinary.path, [command, "--help"]).text
        let matches = help.matches(of: #/--[a-z][a-z-]+/#).map { String($0.output) }
        return Set(matches)
    }

    /// `arguments`' options (`--name` or `--name=value`) by name, each checked against `flags`.
    private func options(
        _ arguments: [String], flags: Set<String>, command: String = "serve", file: StaticString = #filePath, line: UInt = #line
    ) -> [String: String] {
        var result: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else { continue }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            XCTAssertTrue(flags.contains(parts[0]), "folio \(command) has no option \(parts[0])", file: file, line: line)
            if parts.count == 2 {
                result[parts[0]] = parts[1]
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                result[parts[0]] = arguments[index]
                index += 1
            } else {
                result[parts[0]] = ""
            }
        }
        return result
    }

    func testKubernetesManifestsAreWellFormedAndUseRealOptions() throws {
        let text = try String(contentsOf: deploy.appendingPathComponent("kubernetes.yaml"), encoding: .utf8)
        let documents = try Yams.load_all(yaml: text).compactMap { $0 as? [String: Any] }
        XCTAssertEqual(documents.compactMap { $0["kind"] as? String }, ["Deployment", "Service"])
        let deployment = documents[0]
        let service = documents[1]
        XCTAssertEqual(deployment["apiVersion"] as? String, "apps/v1")
        XCTAssertEqual(service["apiVersion"] as? String, "v1")

        let spec = try XCTUnwrap(deployment["spec"] as? [String: Any])
        let selector = try XCTUnwrap((spec["selector"] as? [String: Any])?["matchLabels"] as? [String: String])
        let template = try XCTUnwrap(spec["template"] as? [String: Any])
        let labels = try XCTUnwrap((template["metadata"] as? [String: Any])?["labels"] as? [String: String])
        XCTAssertEqual(selector, labels, "the selector must match the pod labels")
        XCTAssertEqual((service["spec"] as? [String: Any])?["selector"] as? [String: String], labels)

        let pod = try XCTUnwrap(template["spec"] as? [String: Any])
        let container = try XCTUnwrap((pod["containers"] as? [[String: Any]])?.first)
        let arguments = try XCTUnwrap(container["args"] as? [String])
        XCTAssertEqual(arguments.first, "serve")
        let given = options(arguments, flags: try serveFlags())
        let port = try XCTUnwrap((container["ports"] as? [[String: Any]])?.first)
        XCTAssertEqual(port["containerPort"] as? Int, Int(given["--port"] ?? ""))
        let portName = try XCTUnwrap(port["name"] as? String)
        XCTAssertNotNil(given["--token-file"], "a pod listening on 0.0.0.0 needs a token")
        for (probe, path) in [("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")] {
            let get = try XCTUnwrap((container[probe] as? [String: Any])?["httpGet"] as? [String: Any], probe)
            XCTAssertEqual(get["path"] as? String, path)
            XCTAssertEqual(get["port"] as? String, portName)
        }
        let grace = try XCTUnwrap(pod["terminationGracePeriodSeconds"] as? Int)
        let preStop =
            ((((container["lifecycle"] as? [String: Any])?["preStop"] as? [String: Any])?["sleep"]
                as? [String: Any])?["seconds"] as? Int) ?? 0
        XCTAssertGreaterThan(
            Double(grace), Double(preStop) + (Double(given["--grace-period"] ?? "30") ?? 30),
            "the pod must outlive the pre-stop pause and the server's grace period")
        let servicePorts = try XCTUnwrap((service["spec"] as? [String: Any])?["ports"] as? [[String: Any]])
        XCTAssertEqual(servicePorts.first?["targetPort"] as? String, portName)
        // Every volume mounted exists.
        let volumes = Set(((pod["volumes"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String })
        for mount in (container["volumeMounts"] as? [[String: Any]]) ?? [] {
            XCTAssertTrue(volumes.contains(mount["name"] as? String ?? ""), "\(mount)")
        }
    }

    /// The Indexed Job splits a batch over pods: one shard per completion index, options that
    /// `folio batch` has, every path it reads or writes on a mounted volume, the output writable.
    func testTheIndexedJobShardsABatchWithRealOptions() throws {
        let text = try String(contentsOf: deploy.appendingPathComponent("kubernetes-batch.yaml"), encoding: .utf8)
        let documents = try Yams.load_all(yaml: text).compactMap { $0 as? [String: Any] }
        XCTAssertEqual(documents.compactMap { $0["kind"] as? String }, ["Job"])
        let job = documents[0]
        XCTAssertEqual(job["apiVersion"] as? String, "batch/v1")
        let spec = try XCTUnwrap(job["spec"] as? [String: Any])
        XCTAssertEqual(spec["completionMode"] as? String, "Indexed")
        let completions = try XCTUnwrap(spec["completions"] as? Int)
        XCTAssertEqual(spec["parallelism"] as? Int, completions)
        let template = try XCTUnwrap(spec["template"] as? [String: Any])
        let pod = try XCTUnwrap(template["spec"] as? [String: Any])
        XCTAssertEqual(pod["restartPolicy"] as? String, "Never", "a pod failure policy needs restartPolicy Never")
        let container = try XCTUnwrap((pod["containers"] as? [[String: Any]])?.first)
        let arguments = try XCTUnwrap(container["args"] as? [String])
        XCTAssertEqual(arguments.first, "batch")
        let given = options(Array(arguments.dropFirst(2)), flags: try flags(of: "batch"), command: "batch")
        let environment = Dictionary(
            uniqueKeysWithValues: ((container["env"] as? [[String: Any]]) ?? []).compactMap { entry -> (String, String)? in
                guard let name = entry["name"] as? String, let value = entry["value"] as? String else { return nil }
                return (name, value)
            })
        XCTAssertEqual(given["--shard"], "$(JOB_COMPLETION_INDEX)/$(SHARDS)")
        XCTAssertEqual(environment["SHARDS"], String(completions), "one shard per completion index")
        XCTAssertNotNil(given["--resume"], "a retried pod resumes its shard")
        // The failure policy: exit code 1 (records failed, listed) fails the index without retrying it.
        let rules = try XCTUnwrap((spec["podFailurePolicy"] as? [String: Any])?["rules"] as? [[String: Any]])
        let onOne = rules.first { (($0["onExitCodes"] as? [String: Any])?["values"] as? [Int]) == [1] }
        XCTAssertEqual(onOne?["action"] as? String, "FailIndex")
        XCTAssertNotNil(spec["backoffLimitPerIndex"], "FailIndex needs backoffLimitPerIndex")
        // Every path is on a mounted volume, and only the output is writable.
        let volumes = Set(((pod["volumes"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String })
        let mounts = ((container["volumeMounts"] as? [[String: Any]]) ?? []).compactMap { mount -> (path: String, readOnly: Bool)? in
            XCTAssertTrue(volumes.contains(mount["name"] as? String ?? ""), "\(mount)")
            return (mount["mountPath"] as? String).map { ($0, mount["readOnly"] as? Bool ?? false) }
        }
        func mount(of path: String) -> (path: String, readOnly: Bool)? { mounts.first { path.hasPrefix($0.path + "/") } }
        XCTAssertNotNil(mount(of: arguments[1]), "the template \(arguments[1]) is on no volume")
        XCTAssertNotNil(mount(of: try XCTUnwrap(given["--data"])), "the records are on no volume")
        let output = try XCTUnwrap(mount(of: try XCTUnwrap(given["--out"])), "the output is on no volume")
        XCTAssertFalse(output.readOnly, "the output volume must be writable")
    }

    func testSystemdUnitIsWellFormedAndUsesRealOptions() throws {
        let text = try String(contentsOf: deploy.appendingPathComponent("folio.service"), encoding: .utf8)
        var sections: [String: [String: String]] = [:]
        var current = ""
        let known: [String: Set<String>] = [
            "Unit": ["Description", "Documentation", "After", "Wants", "Requires"],
            "Service": [
                "Type", "DynamicUser", "LoadCredential", "ExecStart", "KillSignal", "TimeoutStopSec", "Restart",
                "RestartSec", "Environment", "MemoryMax", "LimitNOFILE", "NoNewPrivileges", "ProtectSystem",
                "ProtectHome", "PrivateTmp", "PrivateDevices", "ProtectKernelTunables", "ProtectKernelModules",
                "ProtectControlGroups", "RestrictAddressFamilies", "RestrictNamespaces", "LockPersonality",
                "MemoryDenyWriteExecute", "SystemCallArchitectures",
            ],
            "Install": ["WantedBy"],
        ]
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                current = String(line.dropFirst().dropLast())
                XCTAssertNotNil(known[current], "unknown section [\(current)]")
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            XCTAssertEqual(parts.count, 2, "not a key=value line: \(line)")
            XCTAssertTrue(known[current]?.contains(parts[0]) == true, "unexpected key \(parts[0]) in [\(current)]")
            sections[current, default: [:]][parts[0]] = parts.count == 2 ? parts[1] : ""
        }
        let service = try XCTUnwrap(sections["Service"])
        let command = try XCTUnwrap(service["ExecStart"]).split(separator: " ").map(String.init)
        XCTAssertEqual(Array(command.prefix(2)), ["/usr/local/bin/folio", "serve"])
        let given = options(Array(command.dropFirst(2)), flags: try serveFlags())
        XCTAssertTrue(given["--token-file"]?.hasPrefix("${CREDENTIALS_DIRECTORY}/") == true)
        XCTAssertTrue(service["LoadCredential"]?.hasPrefix("token:") == true)
        XCTAssertEqual(service["KillSignal"], "SIGTERM")
        XCTAssertGreaterThan(Double(service["TimeoutStopSec"] ?? "") ?? 0, Double(given["--grace-period"] ?? "30") ?? 30)
        XCTAssertEqual(sections["Install"]?["WantedBy"], "multi-user.target")
    }

    /// A shell command's words, its quotes taken off (enough for the manifests' own scripts).
    private func words(_ script: String) -> [String] {
        script.split(whereSeparator: { $0 == " " || $0 == "\n" }).map {
            $0.replacingOccurrences(of: "\"", with: "").replacingOccurrences(of: "'", with: "")
        }
    }

    func testTheWeeklyCronJobFetchesThenBatchesAndPostsWithRealOptions() throws {
        let url = deploy.appendingPathComponent("kubernetes-cronjob.yaml")
        // Kubernetes' own schemas, offline, rejecting unknown fields.
        let validate = try TestSupport.venvTool("kubernetes-validate", variable: "FOLIO_KUBERNETES_VALIDATE")
        let checked = try TestSupport.run(validate, ["--strict", url.path])
        XCTAssertEqual(checked.status, 0, checked.text + checked.stderr)
        let text = try String(contentsOf: url, encoding: .utf8)
        let cronJob = try XCTUnwrap(try Yams.load(yaml: text) as? [String: Any])
        XCTAssertEqual(cronJob["kind"] as? String, "CronJob")
        let spec = try XCTUnwrap(cronJob["spec"] as? [String: Any])
        XCTAssertEqual(spec["schedule"] as? String, "0 5 * * 1", "Mondays at 05:00")
        XCTAssertEqual(spec["concurrencyPolicy"] as? String, "Forbid")
        let job = try XCTUnwrap((spec["jobTemplate"] as? [String: Any])?["spec"] as? [String: Any])
        let pod = try XCTUnwrap((job["template"] as? [String: Any])?["spec"] as? [String: Any])
        XCTAssertEqual(pod["restartPolicy"] as? String, "OnFailure", "a failed batch is rerun without fetching again")
        let fetch = try XCTUnwrap((pod["initContainers"] as? [[String: Any]])?.first)
        let fetchArguments = try XCTUnwrap(fetch["args"] as? [String])
        XCTAssertEqual(fetchArguments.first, "fetch")
        let fetchOptions = options(Array(fetchArguments.dropFirst(2)), flags: try flags(of: "fetch"), command: "fetch")
        let key = try XCTUnwrap(fetchOptions["--private-key"])
        let batch = try XCTUnwrap((pod["containers"] as? [[String: Any]])?.first)
        XCTAssertNil(batch["command"], "the image's entry point, folio: the image has no shell")
        let batchArguments = try XCTUnwrap(batch["args"] as? [String])
        XCTAssertEqual(batchArguments.first, "batch")
        let batchOptions = options(Array(batchArguments.dropFirst(2)), flags: try flags(of: "batch"), command: "batch")
        // Last week in the clinic's zone, each summary named by its week, so weeks share the folder.
        XCTAssertEqual(batchOptions["--period"], "last-week")
        XCTAssertEqual(batchOptions["--zone"], "America/New_York")
        XCTAssertEqual(batchOptions["--name"]?.hasPrefix("{{period.start}}-"), true)
        XCTAssertNotNil(batchOptions["--resume"])
        XCTAssertEqual(batchOptions["--data"], fetchOptions["--out"], "the batch reads what the fetch wrote")
        XCTAssertEqual(batchOptions["--post"], "$(FHIR_BASE)")
        XCTAssertEqual(batchOptions["--private-key"], key)
        XCTAssertEqual(batchOptions["--emit"], "fhir")
        // The key comes from a Secret mounted where both steps read it, readable by the pod's group only.
        let mounts = try XCTUnwrap(fetch["volumeMounts"] as? [[String: Any]])
        let client = try XCTUnwrap(mounts.first { key.hasPrefix(($0["mountPath"] as? String ?? "?") + "/") })
        let volumes = try XCTUnwrap(pod["volumes"] as? [[String: Any]])
        let secret = try XCTUnwrap(volumes.first { $0["name"] as? String == client["name"] as? String }?["secret"] as? [String: Any])
        XCTAssertEqual((secret["defaultMode"] as? Int).map { $0 & 0o027 }, 0, "no write by the group, nothing for others")
    }

    func testTheWeeklyTimerStartsTheFetchThenTheBatch() throws {
        let timer = try String(contentsOf: deploy.appendingPathComponent("folio-weekly.timer"), encoding: .utf8)
        XCTAssertTrue(timer.contains("OnCalendar=Mon *-*-* 05:00:00"))
        XCTAssertTrue(timer.contains("Persistent=true"))
        let service = try String(contentsOf: deploy.appendingPathComponent("folio-weekly.service"), encoding: .utf8)
        let starts = service.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }.map { String($0.dropFirst(10)) }
        XCTAssertEqual(starts.count, 2, "fetch, then batch")
        let fetch = words(starts[0])
        XCTAssertEqual(Array(fetch.prefix(2)), ["/usr/local/bin/folio", "fetch"])
        let fetchOptions = options(Array(fetch.dropFirst(3)), flags: try flags(of: "fetch"), command: "fetch")
        let batch = words(starts[1]).dropFirst()
        XCTAssertEqual(words(starts[1]).first, "/usr/local/bin/folio", "no shell between systemd and folio")
        XCTAssertEqual(batch.first, "batch")
        let batchOptions = options(Array(batch.dropFirst(2)), flags: try flags(of: "batch"), command: "batch")
        XCTAssertEqual(batchOptions["--data"], fetchOptions["--out"])
        XCTAssertNotNil(batchOptions["--post"])
        XCTAssertEqual(service.components(separatedBy: "Type=oneshot").count, 2, "one run per start: the steps in order")
    }

    /// The job-running pods: Kubernetes' schemas, `folio serve`'s options, one store and one job
    /// folder shared by every pod, PostgreSQL's Service, user and password those of the store's URL,
    /// and both autoscalers aimed at the Deployment with one pod per `2 × --workers` jobs.
    func testTheJobRunningDeploymentSharesOnePostgreSQLQueueAndScalesOnIt() throws {
        let url = deploy.appendingPathComponent("kubernetes-jobs.yaml")
        let validate = try TestSupport.venvTool("kubernetes-validate", variable: "FOLIO_KUBERNETES_VALIDATE")
        let checked = try TestSupport.run(validate, ["--strict", url.path])
        XCTAssertEqual(checked.status, 0, checked.text + checked.stderr)
        let documents = try Yams.load_all(yaml: try String(contentsOf: url, encoding: .utf8)).compactMap { $0 as? [String: Any] }
        func document(_ kind: String, _ name: String) throws -> [String: Any] {
            try XCTUnwrap(
                documents.first { $0["kind"] as? String == kind && ($0["metadata"] as? [String: Any])?["name"] as? String == name },
                "\(kind) \(name)")
        }
        let deployment = try document("Deployment", "folio-jobs")
        let pod = try XCTUnwrap(((deployment["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])
        let container = try XCTUnwrap((pod["containers"] as? [[String: Any]])?.first)
        let arguments = try XCTUnwrap(container["args"] as? [String])
        XCTAssertEqual(arguments.first, "serve")
        let given = options(arguments, flags: try serveFlags())
        var settings = JobSettings(directory: URL(fileURLWithPath: try XCTUnwrap(given["--job-dir"])))
        settings.store = given["--job-store"]
        XCTAssertNoThrow(try settings.validate())
        guard case .postgres(let store) = try settings.storeLocation() else { return XCTFail("the pods share a PostgreSQL store") }
        XCTAssertNil(store.password, "the password is not on the command line")
        let environment = try XCTUnwrap(container["env"] as? [[String: Any]])
        let password = try XCTUnwrap(environment.first { $0["name"] as? String == "PGPASSWORD" }?["valueFrom"] as? [String: Any])
        // The store's address is PostgreSQL's Service, its user, database and password the server's own.
        let postgresService = try document("Service", store.host)
        let servicePort = try XCTUnwrap(((postgresService["spec"] as? [String: Any])?["ports"] as? [[String: Any]])?.first)
        XCTAssertEqual(servicePort["port"] as? Int, store.port)
        let statefulSet = try document("StatefulSet", "folio-postgres")
        let postgresPod = try XCTUnwrap(
            ((statefulSet["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])
        let postgres = try XCTUnwrap((postgresPod["containers"] as? [[String: Any]])?.first)
        let postgresEnvironment = try XCTUnwrap(postgres["env"] as? [[String: Any]])
        func value(_ name: String) -> Any? {
            postgresEnvironment.first { $0["name"] as? String == name }.flatMap { $0["value"] ?? $0["valueFrom"] }
        }
        XCTAssertEqual(value("POSTGRES_USER") as? String, store.user)
        XCTAssertEqual(value("POSTGRES_DB") as? String, store.database)
        XCTAssertEqual(
            ((value("POSTGRES_PASSWORD") as? [String: Any])?["secretKeyRef"] as? [String: String]),
            password["secretKeyRef"] as? [String: String], "the server and PostgreSQL read one password")
        XCTAssertEqual(
            (postgresPod["containers"] as? [[String: Any]])?.first.flatMap { ($0["ports"] as? [[String: Any]])?.first?["name"] as? String },
            servicePort["targetPort"] as? String)
        // The job folder is one ReadWriteMany volume every pod mounts; every mount exists.
        let mounts = try XCTUnwrap(container["volumeMounts"] as? [[String: Any]])
        let jobMount = try XCTUnwrap(mounts.first { $0["mountPath"] as? String == given["--job-dir"] }, "--job-dir is mounted")
        let volumes = try XCTUnwrap(pod["volumes"] as? [[String: Any]])
        for mount in mounts {
            XCTAssertTrue(volumes.contains { $0["name"] as? String == mount["name"] as? String }, "\(mount)")
        }
        let jobVolume = try XCTUnwrap(volumes.first { $0["name"] as? String == jobMount["name"] as? String })
        let claimName = try XCTUnwrap((jobVolume["persistentVolumeClaim"] as? [String: Any])?["claimName"] as? String)
        let claim = try document("PersistentVolumeClaim", claimName)
        XCTAssertEqual((claim["spec"] as? [String: Any])?["accessModes"] as? [String], ["ReadWriteMany"])
        let tokens = try XCTUnwrap(given["--tokens-file"])
        XCTAssertTrue(mounts.contains { tokens.hasPrefix(($0["mountPath"] as? String ?? "?") + "/") }, "--tokens-file is mounted")
        let grace = try XCTUnwrap(pod["terminationGracePeriodSeconds"] as? Int)
        XCTAssertGreaterThan(Double(grace), 5 + (Double(given["--grace-period"] ?? "30") ?? 30))
        // Both autoscalers: the Deployment, one pod per 2 × --workers jobs queued or running.
        let perPod = 2 * (Int(given["--workers"] ?? "") ?? 0)
        let autoscaler = try document("HorizontalPodAutoscaler", "folio-jobs")
        let autoscalerSpec = try XCTUnwrap(autoscaler["spec"] as? [String: Any])
        XCTAssertEqual((autoscalerSpec["scaleTargetRef"] as? [String: Any])?["name"] as? String, "folio-jobs")
        let metric = try XCTUnwrap((autoscalerSpec["metrics"] as? [[String: Any]])?.first?["external"] as? [String: Any])
        XCTAssertEqual((metric["target"] as? [String: Any])?["averageValue"] as? String, String(perPod))
        let keda = try XCTUnwrap(
            try Yams.load(yaml: try String(contentsOf: deploy.appendingPathComponent("kubernetes-jobs-keda.yaml"), encoding: .utf8))
                as? [String: Any])
        XCTAssertEqual(keda["apiVersion"] as? String, "keda.sh/v1alpha1")
        XCTAssertEqual(keda["kind"] as? String, "ScaledObject")
        let kedaSpec = try XCTUnwrap(keda["spec"] as? [String: Any])
        XCTAssertEqual((kedaSpec["scaleTargetRef"] as? [String: Any])?["name"] as? String, "folio-jobs")
        XCTAssertEqual(kedaSpec["minReplicaCount"] as? Int, autoscalerSpec["minReplicas"] as? Int)
        XCTAssertEqual(kedaSpec["maxReplicaCount"] as? Int, autoscalerSpec["maxReplicas"] as? Int)
        let trigger = try XCTUnwrap((kedaSpec["triggers"] as? [[String: Any]])?.first)
        XCTAssertEqual(trigger["type"] as? String, "prometheus")
        let triggerSettings = try XCTUnwrap(trigger["metadata"] as? [String: String])
        XCTAssertEqual(triggerSettings["threshold"], String(perPod))
        XCTAssertEqual(Set(triggerSettings.keys), ["serverAddress", "query", "threshold"], "fields KEDA's prometheus scaler reads")
        // The query names the gauge folio serve exports, and the states it has.
        let query = try XCTUnwrap(triggerSettings["query"])
        XCTAssertTrue(query.hasPrefix("max("), "every pod reports the whole queue: the max, not the sum")
        let metrics = try String(
            contentsOf: TestSupport.root.appendingPathComponent("Sources/FolioServer/ServerMetrics.swift"), encoding: .utf8)
        XCTAssertTrue(metrics.contains(#"Gauge(label: "folio_jobs", dimensions: [("state", state.rawValue)]"#))
        XCTAssertTrue(query.contains(#"folio_jobs{state=~"queued|running"}"#), query)
        XCTAssertNotNil(Job.State(rawValue: "queued"))
        XCTAssertNotNil(Job.State(rawValue: "running"))
    }
}
