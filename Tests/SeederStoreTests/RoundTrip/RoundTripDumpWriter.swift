/// Writes a model's records as dump files: each record once in full (its home occurrence),
/// some again in part in another file or embedded in another record, each occurrence spelled
/// its own way, so a seed that keeps every value has merged them all.
struct RoundTripDumpWriter {
    private var model: RoundTripModel
    private var spelling: RoundTripSpelling
    private var random: SplitMix64

    /// How much of a record an occurrence writes.
    enum Occurrence { case home, duplicate, embedded }

    /// A JSON object being written: members in order, nested objects for key paths.
    indirect enum Node {
        case text(String)
        case object([(String, Node)])
    }

    init(model: RoundTripModel, seed: UInt64) {
        self.model = model
        random = SplitMix64(seed: seed)
        spelling = RoundTripSpelling(random: SplitMix64(seed: seed ^ 0x00C0_FFEE))
    }

    /// Decides each entity's files, then writes them; returns the model with its files and
    /// the files' paths and text.
    mutating func write() -> (model: RoundTripModel, files: [(path: String, text: String)]) {
        var files: [(path: String, text: String)] = []
        for index in model.entities.indices {
            let tops = model.records[index].indices.filter { !model.records[index][$0].isOwned }
            guard model.entities[index].identity != .none || !tops.isEmpty else { continue }
            let table = model.entities[index].table
            model.entities[index].files = (1...random.int(1...2)).map { number in
                let path = table + "-\(number)" + random.pick([".json", ".json", ".json", ".jsonl", ".ndjson"])
                let keyPath = random.pick([nil, nil, ["item"]] + (path.hasSuffix(".json") ? [["data", "items"]] : []))
                return DumpFile(path: path, keyPath: keyPath)
            }
            var placed: [[(Int, Occurrence)]] = model.entities[index].files.map { _ in [] }
            for record in tops {
                placed[random.int(0...(placed.count - 1))].append((record, .home))
                if model.entities[index].identity != .none, random.chance(0.35) {
                    placed[random.int(0...(placed.count - 1))].append((record, .duplicate))
                }
            }
            for (file, occurrences) in zip(model.entities[index].files, placed) {
                spelling.singleLine = file.isLines
                let objects = random.shuffled(occurrences).map { record, occurrence -> String in
                    let object = self.object(entity: index, record: model.records[index][record], occurrence)
                    return file.keyPath == ["item"] ? "{\"item\": \(object)}" : object
                }
                files.append((file.path, document(objects, file: file)))
            }
        }
        return (model, files)
    }

    private mutating func document(_ objects: [String], file: DumpFile) -> String {
        if file.isLines { return objects.map { $0 + (random.chance(0.2) ? "\n" : "") }.joined(separator: "\n") + "\n" }
        var text =
            objects.count == 1 && file.keyPath != ["data", "items"] && random.chance(0.3)
            ? objects[0] : "[\n" + objects.joined(separator: random.pick([",\n", ", "])) + "\n]"
        if file.keyPath == ["data", "items"] { text = "{\"data\": {\"items\": \(text)}}" }
        // A leading byte-order mark is skipped (docs/mapping.md, Dump files).
        return (random.chance(0.1) ? "\u{FEFF}" : "") + text + "\n"
    }

    // MARK: Records

    mutating func object(entity index: Int, record: RecordModel, _ occurrence: Occurrence) -> String {
        let entity = model.entities[index]
        var members: [(String, Node)] = []
        var nested: [String: [LogicalValue?]] = [:]
        for (attributeIndex, attribute) in entity.attributes.enumerated() {
            let value = record.values[attributeIndex]
            let isKey = attributeIndex < max(entity.identityCount, entity.identity == .none ? 1 : 0)
            let written = value != nil && (isKey || occurrence == .home || random.chance(0.5))
            if let first = attribute.source.path?.first { nested[first, default: []].append(written ? value : nil) }
            guard written, let value else { continue }
            let text = spelling.spell(value, as: attribute.type, timeZone: attribute.zone)
            switch attribute.source {
            case let .name(spellings): members.append((random.pick(spellings), .text(text)))
            case let .dotted(path), let .literal(path): Self.insert(text, at: path, into: &members)
            }
        }
        // A key applied to `null` gives `null` (docs/mapping.md, Key paths): `"meta": null`
        // says every attribute under `meta` is null, when each of them is, in this occurrence.
        for (index, member) in members.enumerated() where nested[member.0]?.allSatisfy({ $0 == .null }) == true {
            if random.chance(0.5) { members[index].1 = .text("null") }
        }
        if occurrence != .embedded {
            for (relationshipIndex, relationship) in entity.relationships.enumerated() {
                link(relationshipIndex, relationship, of: record, entity: index, occurrence, into: &members)
            }
        }
        return Self.text(members, space: random.pick(["", " "]))
    }

    private mutating func link(
        _ index: Int, _ relationship: RelationshipModel, of record: RecordModel, entity: Int,
        _ occurrence: Occurrence, into members: inout [(String, Node)]
    ) {
        let targets = record.links[index]
        let target = model.entities[relationship.target]
        let owned = target.identity == .none
        if owned, occurrence != .home { return }
        if let inverse = relationship.inverseOf {
            // A child's own word for its parent: needed when the parent does not list it.
            guard let parent = targets.first, !record.isOwned, !owned else { return }
            let mustSay = self.record(parent, of: inverse.entity).unlisted.contains(inverse.relationship)
            guard mustSay || random.chance(occurrence == .home ? 0.5 : 0.3) else { return }
            put(reference(parent, of: relationship.target), relationship, asID: random.chance(0.5), into: &members)
            return
        }
        if record.unlisted.contains(index) { return }
        if occurrence == .duplicate, random.chance(0.5) { return }
        if !relationship.isToMany {
            guard let key = targets.first else {
                if random.chance(0.3) { put("null", relationship, asID: false, into: &members) }
                return
            }
            let embed = owned || random.chance(0.4)
            let text =
                embed
                ? object(entity: relationship.target, record: self.record(key, of: relationship.target), owned ? .home : .embedded)
                : reference(key, of: relationship.target)
            put(text, relationship, asID: !embed && random.chance(0.5), into: &members)
            return
        }
        // A duplicate lists a prefix: the links united in first-seen order stay the home's.
        let listed = occurrence == .home ? targets : Array(targets.prefix(random.int(0...targets.count)))
        if listed.isEmpty, random.chance(0.5) { return }
        let embed = owned || random.chance(0.4)
        var items = listed.map { key in
            embed
                ? object(entity: relationship.target, record: self.record(key, of: relationship.target), owned ? .home : .embedded)
                : reference(key, of: relationship.target, inList: true)
        }
        // `null` elements are skipped (docs/mapping.md, Relationships).
        if random.chance(0.15) { items.insert("null", at: random.int(0...items.count)) }
        put("[" + items.joined(separator: ", ") + "]", relationship, asID: !embed && random.chance(0.5), into: &members)
    }

    /// A reference to `key`: the identity value, or for a composite identity an array in
    /// identity order (not in a list) or an object of its keys.
    private mutating func reference(_ key: RecordKey, of entity: Int, inList: Bool = false) -> String {
        guard case let .values(values) = key else { fatalError("a reference to a record without identity") }
        let attributes = model.entities[entity].attributes
        let texts = zip(values, attributes).map { spelling.spell($0, as: $1.type, timeZone: $1.zone) }
        if texts.count == 1 { return texts[0] }
        if !inList, random.chance(0.5) { return "[" + texts.joined(separator: ", ") + "]" }
        return "{" + zip(attributes, texts).map { "\"\($0.name)\": \($1)" }.joined(separator: ", ") + "}"
    }

    private mutating func put(_ text: String, _ relationship: RelationshipModel, asID: Bool, into members: inout [(String, Node)]) {
        switch relationship.key {
        case let .conventional(name, idKey):
            members.append((asID && !idKey.isEmpty ? idKey : name, .text(text)))
        case let .path(keys):
            Self.insert(text, at: keys, into: &members)
        }
    }

    private func record(_ key: RecordKey, of entity: Int) -> RecordModel {
        let text = RoundTripExpectation.keyText(key)
        guard let record = model.records[entity].first(where: { RoundTripExpectation.keyText($0.key) == text }) else {
            fatalError("no record \(text) of \(model.entities[entity].name)")
        }
        return record
    }

    // MARK: Objects

    static func insert(_ text: String, at path: [String], into members: inout [(String, Node)]) {
        guard path.count > 1 else {
            members.append((path[0], .text(text)))
            return
        }
        if let index = members.firstIndex(where: { $0.0 == path[0] }), case var .object(inner) = members[index].1 {
            insert(text, at: Array(path.dropFirst()), into: &inner)
            members[index].1 = .object(inner)
        } else {
            var inner: [(String, Node)] = []
            insert(text, at: Array(path.dropFirst()), into: &inner)
            members.append((path[0], .object(inner)))
        }
    }

    static func text(_ members: [(String, Node)], space: String) -> String {
        "{"
            + members.map { key, node -> String in
                let value: String
                switch node {
                case let .text(text): value = text
                case let .object(inner): value = text(inner, space: space)
                }
                return "\"\(key)\":" + space + value
            }.joined(separator: "," + space) + "}"
    }
}
