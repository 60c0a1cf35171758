#!/usr/bin/env python3
"""Builds the FHIR R4 JSON of HL7's IPS example Bundles from their FHIR Shorthand (HL7/fhir-ips,
input/fsh/instances), for the FHIR reader's tests: a small FSH reader covering what those examples
use (paths with indexes, soft indexes and named slices; codes, quantities, references, inline
instances). Run: fsh_to_json.py FSH_FOLDER OUT_FOLDER (FSH_FOLDER holds aliases.fsh and instances/).
The outputs are checked with fhir.resources (R4B) when it is installed."""
import json, os, re, sys

ARRAYS = {
    "identifier", "name", "given", "line", "telecom", "address", "category", "coding", "performer", "author", "section",
    "entry", "contact", "reaction", "manifestation", "dosage", "dosageInstruction", "doseAndRate", "referenceRange",
    "interpretation", "component", "hasMember", "result", "note", "bodySite", "protocolApplied", "targetDisease",
    "reasonCode", "extension", "profile", "security", "tag", "contained", "event", "attester", "relatesTo", "communication",
    "prefix", "suffix", "ingredient", "deviceName", "qualification", "specimen", "basedOn", "derivedFrom",
    "activity", "goal", "addresses", "policy", "sourceAttachment", "content", "conclusionCode",
    "presentedForm", "reasonReference", "focus", "udiCarrier", "telecom", "instantiatesUri", "when",
    "timeOfDay", "dayOfWeek", "evidence", "stage", "assessment", "site", "substance", "exposureRoute",
    "identifier", "modifierExtension", "usedCode", "complication", "followUp", "supportingInfo",
    "statusReason", "hasMember", "interpretation", "instantiatesCanonical", "author",
    "relationship", "participant", "media", "imagingStudy", "additionalInstruction",
    "consentingParty", "verification", "coding", "payload", "qualification",
    "relatedArtifact", "property", "version", "specialty", "availableTime", "endpoint", "healthcareService",
}
# Elements that are lists only under some parents.
LISTS_UNDER = {("provision", "code"), ("activity", "outcomeCodeableConcept"), ("CarePlan", "partOf"), ("CarePlan", "replaces"),
               ("Organization", "type"), ("Encounter", "type"), ("event", "code"), ("PractitionerRole", "code"),
               ("provision", "actor"), ("Consent", "category"), ("Consent", "provision_")}
# Elements that hold one value (0..1) though their names are in ARRAYS elsewhere, by parent type.
SINGLE = {
    ("Bundle", "identifier"), ("Composition", "identifier"), ("Bundle", "type"), ("Composition", "type"),
    ("Observation", "code"), ("Condition", "code"), ("Procedure", "code"), ("AllergyIntolerance", "code"),
    ("DiagnosticReport", "code"), ("Medication", "code"), ("Flag", "code"), ("Device", "type"), ("Specimen", "type"),
    ("Observation", "specimen"), ("Immunization", "site"), ("MedicationStatement", "category"),
    ("AllergyIntolerance", "type"), ("Consent", "scope"), ("Consent", "provision"), ("Consent", "policyRule"),
    ("Goal", "description"), ("Immunization", "vaccineCode"), ("Patient", "maritalStatus"), ("Organization", "type_"),
    ("component", "code"), ("section", "code"), ("reaction", "substance"), ("relatesTo", "code"), ("contact", "name"),
    ("contact", "address"), ("identifier", "type"), ("Specimen", "collection"), ("Condition", "severity"),
    ("ingredient", "strength"), ("Procedure", "outcome"), ("Composition", "custodian"), ("Bundle", "timestamp"),
    ("Encounter", "class"), ("communication", "language"), ("Consent", "category_"), ("Medication", "form"),
    ("DeviceUseStatement", "device"), ("Device", "patient"), ("qualification", "code"), ("PractitionerRole", "practitioner"),
    ("PractitionerRole", "organization"), ("CarePlan", "subject"), ("Observation", "method"), ("provision", "type"),
    ("contact", "relationship_"), ("entry", "resource"), ("detail", "statusReason"), ("Organization", "name"), ("Location", "name"),
}
# Elements whose codes are plain FHIR `code`s, not CodeableConcepts.
PLAIN_CODES = {
    "status", "gender", "use", "mode", "language", "confidentiality", "criticality", "intent", "system", "type@Bundle",
    "type@AllergyIntolerance", "category@AllergyIntolerance", "comparator", "severity@reaction", "periodUnit",
    "durationUnit", "code@relatesTo", "contentType", "lifecycleStatus", "priority@Flag", "when", "dayOfWeek", "type@provision",
    "type@address", "code@Quantity", "mode@attester",
}
UCUM = "http://unitsofmeasure.org"


def base_type(instance_of):
    return instance_of.split("-")[0]


def parse_value(text, aliases):
    text = text.strip()
    if text.startswith('"'):
        return ("string", json.loads(text.split('" ')[0] + '"' if text.count('"') > 2 and not text.endswith('"') else text))
    m = re.match(r'^Reference\(([^)]+)\)(?:\s+"(.*)")?$', text)
    if m:
        return ("reference", (m.group(1).strip(), m.group(2)))
    m = re.match(r'^(-?[0-9.]+)\s+(\S+)#(\S+)(?:\s+"(.*)")?$', text)
    if m:
        return ("codedQuantity", (float(m.group(1)), m.group(2), m.group(3), m.group(4)))
    m = re.match(r"^(-?[0-9.]+(?:e[+-]?[0-9]+)?)\s+'([^']*)'(?:\s+\"(.*)\")?$", text)
    if m:
        return ("quantity", (float(m.group(1)), m.group(2), m.group(3)))
    m = re.match(r'^(\$?[^#\s"]*)#("[^"]*"|\S+)(?:\s+"(.*)")?$', text)
    if m:
        system = m.group(1)
        if system.startswith("$"):
            system = aliases[system]
        code = m.group(2).strip('"')
        return ("code", (system or None, code, m.group(3)))
    if text in ("true", "false"):
        return ("boolean", text == "true")
    if re.match(r"^-?[0-9]+$", text):
        return ("integer", int(text))
    if re.match(r"^-?[0-9]*\.[0-9]+$", text):
        return ("decimal", float(text))
    return ("instance", text)


def read_instances(folder):
    instances = {}
    current = None
    pending = None
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".fsh"):
            continue
        lines = open(os.path.join(folder, name), encoding="utf-8").read().split("\n")
        for line in lines:
            if pending is not None:
                pending += "\n" + line
                if pending.count('"') - pending.count('\\"') >= 2 and pending.rstrip().endswith('"'):
                    current["rules"].append(pending)
                    pending = None
                continue
            if line.startswith("Instance:"):
                current = {"name": line.split(":", 1)[1].strip(), "rules": [], "type": None, "usage": None}
                instances[current["name"]] = current
            elif line.startswith("InstanceOf:") and current:
                current["type"] = base_type(line.split(":", 1)[1].strip())
            elif line.startswith("Usage:") and current:
                current["usage"] = line.split(":", 1)[1].strip()
            elif line.startswith("* ") and current:
                rule = line[2:]
                if '"' in rule and (rule.count('"') - rule.count('\\"')) % 2 == 1:
                    pending = rule
                else:
                    current["rules"].append(rule)
    return instances


def split_path(path):
    parts = []
    for segment in re.findall(r"[^.\[]+(?:\[[^\]]*\])?", path):
        m = re.match(r"^([^\[]+)(?:\[([^\]]*)\])?$", segment)
        parts.append((m.group(1), m.group(2)))
    return parts


class Builder:
    def __init__(self, instances, aliases):
        self.instances = instances
        self.aliases = aliases
        self.full_urls = {}

    def build(self, name):
        instance = self.instances[name]
        resource = {"resourceType": instance["type"]}
        counters = {}
        for rule in instance["rules"]:
            if " = " not in rule:
                continue
            path, value = rule.split(" = ", 1)
            self.assign(resource, instance["type"], path.strip(), value, counters)
        return resource

    def assign(self, resource, rtype, path, value_text, counters):
        parts = split_path(path)
        node = resource
        parent_name = rtype
        prefix = ""
        for position, (name, index) in enumerate(parts):
            last = position == len(parts) - 1
            is_array = (name in ARRAYS and (parent_name, name) not in SINGLE) or (parent_name, name) in LISTS_UNDER or index is not None
            if name.startswith("value") and name != "value" and index is None:
                is_array = False
            key = prefix + "." + name
            if is_array:
                items = node.setdefault(name, [])
                if not isinstance(items, list):
                    items = node[name] = [items]
                if index is None:
                    slot = 0
                elif index.isdigit():
                    slot = int(index)
                elif index == "=":
                    slot = counters.get(key, 0)
                elif index == "+":
                    slot = counters.get(key, -1) + 1
                else:
                    # A named slice (`section[sectionAllergies]`): an element of its own, in order of first use.
                    order = counters.setdefault(key + "#order", {})
                    if index not in order:
                        order[index] = counters.get(key + "#next", len(items))
                        counters[key + "#next"] = order[index] + 1
                    slot = order[index]
                counters[key] = slot
                while len(items) <= slot:
                    items.append({})
                if last:
                    items[slot] = self.value(items[slot], name, parent_name, value_text)
                    return
                node = items[slot]
                prefix = key + "[" + str(slot) + "]"
            else:
                if last:
                    node[name] = self.value(node.get(name), name, parent_name, value_text)
                    return
                primitive = name.endswith(("DateTime", "String", "Date", "Boolean", "Code", "Instant", "Uri", "Integer"))
                if (name in node and not isinstance(node[name], dict)) or primitive and parts[position + 1][0] == "extension":
                    name = "_" + name  # a primitive's extensions (`display.extension`) are in `_display`
                node = node.setdefault(name, {})
                prefix = key
            parent_name = name

    def value(self, existing, name, parent, text):
        if name == "resource" and text.strip() in self.instances:
            return self.build(text.strip())
        kind, value = parse_value(text, self.aliases)
        if kind == "string":
            return value
        if kind in ("boolean", "integer", "decimal"):
            return value
        if kind == "reference":
            out = {"reference": self.reference(value[0])}
            if value[1]:
                out["display"] = value[1]
            return out
        if kind == "codedQuantity":
            number, system, code, display = value
            out = {"value": number, "system": system, "code": code}
            if display:
                out["unit"] = display
            return out
        if kind == "quantity":
            number, code, display = value
            out = dict(existing or {})
            out.update({"value": number, "unit": display or code, "system": UCUM, "code": code})
            return out
        if kind == "code":
            system, code, display = value
            plain = (name in PLAIN_CODES or f"{name}@{parent}" in PLAIN_CODES or name == "valueCode") and not (
                name == "language" and parent == "communication")
            if plain:
                return code
            coding = {"code": code}
            if system:
                coding = {"system": system, "code": code}
            if display:
                coding["display"] = display
            if parent == "coding" or name in ("class", "security", "tag") or name == "coding":
                return coding
            concept = dict(existing or {})
            concept["coding"] = [coding]
            return concept
        if kind == "instance":
            if not isinstance(existing, str) and value in self.instances:
                return self.build(value)
            return value
        raise ValueError(text)

    def reference(self, target):
        if ":" in target or "/" in target:
            return target
        url = self.full_urls.get(target)
        if url and url.startswith("urn:"):
            return url
        instance = self.instances.get(target)
        if instance:
            return f"{instance['type']}/{target}"
        return target


def main():
    source, out = sys.argv[1], sys.argv[2]
    aliases = {}
    for line in open(os.path.join(source, "aliases.fsh"), encoding="utf-8"):
        if line.startswith("Alias:"):
            name, url = line[6:].split("=", 1)
            aliases[name.strip()] = url.strip()
    instances = read_instances(os.path.join(source, "instances"))
    os.makedirs(out, exist_ok=True)
    for name, instance in instances.items():
        if instance["type"] != "Bundle" or instance["usage"] != "#example":
            continue
        builder = Builder(instances, aliases)
        # Full URLs first, so references to urn:uuid entries are written as their URNs.
        urls = []
        for rule in instance["rules"]:
            m = re.match(r"entry\[[^\]]*\]\.fullUrl = \"(.*)\"", rule)
            if m:
                urls.append(m.group(1))
            m = re.match(r"entry\[[^\]]*\]\.resource = (\S+)", rule)
            if m and urls:
                builder.full_urls[m.group(1)] = urls[-1]
        bundle = builder.build(name)
        for entry in bundle.get("entry", []):
            resource = entry.get("resource", {})
            url = entry.get("fullUrl", "")
            target = [k for k, v in builder.full_urls.items() if v == url]
            if target and not url.startswith("urn:") and "id" not in resource:
                resource["id"] = target[0]
        with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as handle:
            json.dump(bundle, handle, indent=1, ensure_ascii=False)
            handle.write("\n")
        print(name, len(bundle.get("entry", [])), "entries")


if __name__ == "__main__":
    main()
