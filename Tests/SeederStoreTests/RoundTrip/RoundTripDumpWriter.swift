import SeederTestSupport

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
    /// the files' paths and text. Some occurrences go to a file whose source's `entity:` is a
    /// selector, each record there saying its case.
    mutating func write() -> (model: RoundTripModel, files: [(path: String, text: String)]) {
        var files: [(path: String, text: String)] = []
        let tops = model.entities.indices.map { index in
            model.records[index].indices.filter { !model.records[index][$0].isOwned && !model.records[index][$0].isCreated }
        }
        let fed = model.entities.indices.filter { model.entities[$0].identity != .none || !tops[$0].isEmpty }
        if fed.count > 1, random.chance(0.2) {
            let cases = Array(random.shuffled(fed).prefix(random.int(2...min(3, fed.count)))).map { entity in
                SelectorCase(value: random.pick([model.entities[entity].name.lowercased(), "k\(entity)"]), entity: entity)
            }
            model.mixedFiles = [MixedFile(path: "mixed-1" + random.pick([".json", ".jsonl"]), by: "kind", cases: cases)]
        }
        var mixed: [String] = []
        for index in fed {
            let table = model.entities[index].table
            let keyable = model.entities[index].identityCount == 1
            model.entities[index].files = (1...random.int(1...2)).map { number in
                let path = table + "-\(number)" + random.pick([".json", ".json", ".json", ".jsonl", ".ndjson"])
                let keyPath = random.pick([nil, nil, ["item"]] + (path.hasSuffix(".json") ? [["data", "items"]] : []))
                let keyedBy = keyable && random.chance(0.25) ? model.entities[index].attributes[0].name : nil
                return DumpFile(path: path, keyPath: keyPath, keyedBy: keyedBy)
            }
            let byValue = model.mixedFiles.first?.cases.first { $0.entity == index }?.value
            // The last place is the selector's file, when this entity is one of its cases.
            let places = model.entities[index].files.count + (byValue == nil ? 0 : 1)
            var placed: [[(Int, Occurrence)]] = Array(repeating: [], count: places)
            for record in tops[index] {
                placed[random.int(0...(places - 1))].append((record, .home))
                if model.entities[index].identity != .none, random.chance(0.35) {
                    placed[random.int(0...(places - 1))].append((record, .duplicate))
                }
            }
            if let byValue, let file = model.mixedFiles.first {
                spelling.singleLine = file.isLines
                mixed += placed[places - 1].map { record, occurrence in
                    object(entity: index, record: model.records[index][record], occurrence, extra: ("kind", spelling.string(byValue)))
                }
            }
            for (file, occurrences) in zip(model.entities[index].files, placed) {
                spelling.singleLine = file.isLines
                let objects =
                    file.keyedBy == nil
                    ? random.shuffled(occurrences).map { record, occurrence in
                        object(entity: index, record: model.records[index][record], occurrence)
                    } : keyedObjects(entity: index, occurrences)
                let wrapped = objects.map { file.keyPath == ["item"] ? "{\"item\": \($0)}" : $0 }
                files.append((file.path, document(wrapped, file: file)))
            }
        }
        if let file = model.mixedFiles.first {
            files.append((file.path, document(random.shuffled(mixed), file: DumpFile(path: file.path))))
        }
        return (model, files)
    }

    /// Objects whose keys are the records (`keyedBy`): no record twice in one object, the key
    /// sometimes repeated inside, sometimes a `null` member to skip.
    private mutating func keyedObjects(entity index: Int, _ occurrences: [(Int, Occurrence)]) -> [String] {
        var chunks: [[(Int, Occurrence)]] = []
        for (record, occurrence) in random.shuffled(occurrences) {
            let open = chunks.indices.filter { chunk in !chunks[chunk].contains { $0.0 == record } }
            if open.isEmpty || random.chance(0.3) {
                chunks.append([(record, occurrence)])
            } else {
                chunks[random.pick(open)].append((record, occurrence))
            }
        }
        return chunks.map { chunk in
            var members = chunk.map { record, occurrence -> String in
                let record = model.records[index][record]
                return key(record.key, of: index) + ": " + object(entity: index, record: record, occurrence, omitKey: random.chance(0.5))
            }
            if random.chance(0.15), let fresh = freshKey(of: index) { members.insert(fresh + ": null", at: random.int(0...members.count)) }
            return "{" + members.joined(separator: ", ") + "}"
        }
    }

    /// An object key spelling a record's one-attribute identity.
    private mutating func key(_ key: RecordKey, of entity: Int) -> String {
        guard case let .values(values) = key, values.count == 1 else { fatalError("a keyedBy record without a one-attribute identity") }
        let attribute = model.entities[entity].attributes[0]
        let text = spelling.spell(values[0], as: attribute.type, timeZone: attribute.zone)
        // By its first byte: `hasPrefix` compares characters, and `"` may join a following U+200D.
        return text.utf8.first == UInt8(ascii: "\"") ? text : "\"" + text + "\""
    }

    /// A key no record of `entity` has, for a `null` member that must make no row.
    private mutating func freshKey(of entity: Int) -> String? {
        let taken = Set(model.records[entity].map { RoundTripExpectation.keyText($0.key) })
        let value: LogicalValue
        switch model.entities[entity].identity {
        case .integer: value = .integer(RoundTripValues.integer(&random))
        case .string: value = .string(RoundTripValues.string(&random))
        case .uuid: value = .uuid(RoundTripValues.uuid(&random))
        case .composite, .none: return nil
        }
        guard !taken.contains(RoundTripExpectation.identityText([value])) else { return nil }
        return key(.values([value]), of: entity)
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

    /// One occurrence of a record; `omitKey` leaves out the identity that a `keyedBy` key
    /// gives, `extra` is a selector's `by` member.
    mutating func object(
        entity index: Int, record: RecordModel, _ occurrence: Occurrence, omitKey: Bool = false, extra: (String, String)? = nil
    ) -> String {
        let entity = model.entities[index]
        var members: [(String, Node)] = []
        var nested: [String: [LogicalValue?]] = [:]
        for (attributeIndex, attribute) in entity.attributes.enumerated() {
            let value = record.values[attributeIndex]
            let isKey = attributeIndex < max(entity.identityCount, entity.identity == .none ? 1 : 0)
            let written = value != nil && (isKey ? !omitKey : occurrence == .home || random.chance(0.5))
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
        if let extra { members.insert((extra.0, .text(extra.1)), at: random.int(0...members.count)) }
        return Self.text(members, space: random.pick(["", " "]))
    }

    private mutating func link(
        _ index: Int, _ relationship: RelationshipModel, of record: RecordModel, entity: Int,
        _ occurrence: Occurrence, into members: inout [(String, Node)]
    ) {
        let targets = record.links[index]
        let owned = model.entities[relationship.target].identity == .none
        if owned, occurrence != .home { return }
        if let inverse = relationship.inverseOf {
            // A child's own word for its parent: needed when the parent does not list it.
            guard let parent = targets.first, !record.isOwned, !owned else { return }
            let mustSay = self.record(parent).unlisted.contains(inverse.relationship)
            guard mustSay || random.chance(occurrence == .home ? 0.5 : 0.3) else { return }
            put(reference(parent.key, of: parent.entity), relationship, asID: random.chance(0.5), into: &members)
            return
        }
        if record.unlisted.contains(index) { return }
        if occurrence == .duplicate, random.chance(0.5) { return }
        if !relationship.isToMany {
            guard let link = targets.first else {
                if random.chance(0.3) { put("null", relationship, asID: false, into: &members) }
                return
            }
            // A made record is provided by no object: only referenced.
            let embed = owned || (!self.record(link).isCreated && random.chance(0.4))
            let by = byMember(relationship, link)
            let text: String
            if embed {
                text = object(entity: link.entity, record: self.record(link), owned ? .home : .embedded, extra: by)
            } else if let by, random.chance(0.5) {
                text = objectReference(link, by: by)
            } else {
                // A bare id's `by` is read in the record that holds it; a composite one is then
                // an array (an object of its keys would be a reference object, `by` in it).
                text = reference(link.key, of: link.entity, asArray: by != nil)
                if let by { members.append((by.0, .text(by.1))) }
            }
            put(text, relationship, asID: !embed && random.chance(0.5), into: &members)
            return
        }
        // A duplicate lists a prefix: the links united in first-seen order stay the home's.
        let listed = occurrence == .home ? targets : Array(targets.prefix(random.int(0...targets.count)))
        if listed.isEmpty, random.chance(0.5) { return }
        let embed = owned || (!listed.contains { self.record($0).isCreated } && random.chance(0.4))
        if embed, !owned, relationship.keyedBy != nil, random.chance(0.6) {
            // `keyedBy`: an object whose keys are the records, each an embedded one.
            var items = listed.map { link in
                key(link.key, of: link.entity) + ": "
                    + object(
                        entity: link.entity, record: self.record(link), .embedded, omitKey: random.chance(0.5),
                        extra: byMember(relationship, link))
            }
            if random.chance(0.2), let fresh = freshKey(of: relationship.target) {
                items.insert(fresh + ": null", at: random.int(0...items.count))
            }
            put("{" + items.joined(separator: ", ") + "}", relationship, asID: false, into: &members)
            return
        }
        // Bare ids of a selector name one entity, by the `by` beside them.
        let sameCase = Set(listed.map(\.entity)).count <= 1 && model.entities[relationship.target].identityCount == 1
        let bare = relationship.selector == nil || (sameCase && random.chance(0.5))
        var items = listed.map { link in
            if embed {
                return object(
                    entity: link.entity, record: self.record(link), owned ? .home : .embedded, extra: byMember(relationship, link))
            }
            if !bare, let by = byMember(relationship, link) { return objectReference(link, by: by) }
            return reference(link.key, of: link.entity, inList: true)
        }
        if !embed, bare, let first = listed.first, let by = byMember(relationship, first) { members.append((by.0, .text(by.1))) }
        // `null` elements are skipped (docs/mapping.md, Relationships).
        if random.chance(0.15) { items.insert("null", at: random.int(0...items.count)) }
        put("[" + items.joined(separator: ", ") + "]", relationship, asID: !embed && random.chance(0.5), into: &members)
    }

    /// A selector's `by` member naming the case of `link`'s entity.
    private mutating func byMember(_ relationship: RelationshipModel, _ link: Link) -> (String, String)? {
        guard let selector = relationship.selector, let value = relationship.caseValue(of: link.entity) else { return nil }
        return (selector.by, spelling.string(value))
    }

    /// A selector's reference as an object: the identity keys and the `by` key.
    private mutating func objectReference(_ link: Link, by: (String, String)) -> String {
        guard case let .values(values) = link.key else { fatalError("a reference to a record without identity") }
        let attributes = model.entities[link.entity].attributes
        var members = zip(values, attributes).map { "\"\($1.name)\": " + spelling.spell($0, as: $1.type, timeZone: $1.zone) }
        members.insert("\"\(by.0)\": " + by.1, at: random.int(0...members.count))
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A reference to `key`: the identity value, or for a composite identity an array in
    /// identity order (not in a list) or an object of its keys.
    private mutating func reference(_ key: RecordKey, of entity: Int, inList: Bool = false, asArray: Bool = false) -> String {
        guard case let .values(values) = key else { fatalError("a reference to a record without identity") }
        let attributes = model.entities[entity].attributes
        let texts = zip(values, attributes).map { spelling.spell($0, as: $1.type, timeZone: $1.zone) }
        if texts.count == 1 { return texts[0] }
        if asArray || (!inList && random.chance(0.5)) { return "[" + texts.joined(separator: ", ") + "]" }
        return "{" + zip(attributes, texts).map { "\"\($0.name)\": \($1)" }.joined(separator: ", ") + "}"
    }

    private mutating func put(_ text: String, _ relationship: RelationshipModel, asID: Bool, into members: inout [(String, Node)]) {
        switch relationship.key {
        case let .conventional(name, idKeys):
            members.append((asID && !idKeys.isEmpty ? random.pick(idKeys) : name, .text(text)))
        case let .path(keys):
            Self.insert(text, at: keys, into: &members)
        }
    }

    private func record(_ link: Link) -> RecordModel {
        let text = RoundTripExpectation.keyText(link.key)
        guard let record = model.records[link.entity].first(where: { RoundTripExpectation.keyText($0.key) == text }) else {
            fatalError("no record \(text) of \(model.entities[link.entity].name)")
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
