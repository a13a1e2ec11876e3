import Foundation
import SeederCore

/// Finds the dump files a build reads (docs/mapping.md, Sources), in the order records are
/// processed: source order, then file order (sorted by path).
///
/// Sources' globs are relative to the dumps directory and may not leave it (`..`, absolute
/// paths, and links that resolve outside are errors). A glob that matches no file is an error.
/// Without `sources:`, each dump file whose base name is an entity's name or table, singular or
/// plural, ignoring case and underscores, feeds that entity from its root. A dump file that no
/// source reads is a warning; a source with `fetch:` and no entity is not read, and its files
/// are no warning.
public struct InputPlanner {
    public let mapping: Mapping
    /// The dumps directory as the user named it.
    public let dumps: String

    public init(mapping: Mapping, dumps: String) {
        self.mapping = mapping
        self.dumps = dumps
    }

    /// The files to read, in order; problems go to `diagnostics`.
    public func plan(diagnostics: DiagnosticSink) -> [InputFile] {
        var unreadable = false
        return plan(diagnostics: diagnostics, unreadable: &unreadable)
    }

    /// The files to read, in order; problems go to `diagnostics`, and `unreadable` is set when
    /// one was a file or directory that could not be read (an I/O failure, not a mapping error:
    /// docs/commands.md, Exit status).
    public func plan(diagnostics: DiagnosticSink, unreadable: inout Bool) -> [InputFile] {
        let root = URL(fileURLWithPath: dumps).standardizedFileURL.resolvingSymlinksInPath().path
        var failures: [WalkFailure] = []
        let files = Self.dumpFiles(under: root, failures: &failures)
        for failure in failures { failure.report(to: diagnostics, planner: self) }
        guard failures.isEmpty else {
            unreadable = true
            return []
        }
        var planned: [InputFile] = []
        var read = Set<String>()
        if let sources = mapping.sources {
            // A source naming one file finds it here: matching every file against every source
            // was quadratic for a mapping of a thousand sources (bench/README.md).
            let named = Set(files)
            for source in sources {
                // Each match with what the glob's stars matched in it, for `@file.N`: a path per
                // file, not per record.
                let glob = SourceGlob(source.path)
                let matches =
                    glob.literalPath.map { named.contains($0) ? [(path: $0, stars: [String]())] : [] }
                    ?? files.compactMap { path in glob.stars(in: path).map { (path: path, stars: $0) } }
                guard let entity = source.entity else {
                    // Fetched only to drive another source's `each`: never read, never unread
                    // (docs/mapping.md, Sources).
                    read.formUnion(matches.map(\.path))
                    continue
                }
                if matches.isEmpty {
                    // The nearest file, most often the same name with or without a suffix (`.gz`).
                    let compressed = files.first { $0 == source.path + ".gz" || $0 == source.path + ".zst" }
                    let suggestion = Wording.didYouMean(compressed ?? closestMatch(to: source.path, in: files))
                    diagnostics.error(.noFile, "source path '\(source.path)' matches no file in \(dumps)\(suggestion)", at: source.location)
                }
                // A glob that takes a dump and its compressed copy reads the records twice: said.
                var byText: [Substring: String] = [:]
                for (path, stars) in matches {
                    if let other = byText.updateValue(path, forKey: DumpCompression.of(file: path).stripped) {
                        diagnostics.warning(
                            .readTwice,
                            "\(other) is this file's text too: '\(source.path)' reads both "
                                + "(keep one, or name the one to read)",
                            at: SourceLocation(file: display(path)))
                    }
                    read.insert(path)  // claimed, even if it is then refused
                    guard
                        var file = inputFile(
                            path, root: root, entity: entity, keyPath: source.keyPath, diagnostics: diagnostics,
                            unreadable: &unreadable)
                    else { continue }
                    file.keyedBy = source.keyedBy
                    file.selector = source.selector
                    file.glob = source.path
                    file.stars = stars
                    planned.append(file)
                }
            }
        } else {
            // Named by file, a dump and its compressed copy would both be read: said, once.
            var byText: [Substring: String] = [:]
            for path in files {
                guard let entity = entityNamed(byFile: path) else { continue }
                guard let file = inputFile(path, root: root, entity: entity, keyPath: [], diagnostics: diagnostics, unreadable: &unreadable)
                else { continue }
                let text = DumpCompression.of(file: path).stripped
                if let other = byText.updateValue(path, forKey: text) {
                    diagnostics.warning(
                        .readTwice,
                        "\(other) is this file's text too: both feed \(mapping.entities[entity].name), and both are read "
                            + "(keep one, or name the one to read in 'sources')",
                        at: SourceLocation(file: display(path)))
                }
                planned.append(file)
                read.insert(path)
            }
        }
        for path in files where !read.contains(path) {
            if Source.format(ofFile: path) != nil {
                diagnostics.warning(.unreadFile, "no source reads this dump file", at: SourceLocation(file: display(path)))
            } else if Self.looksCompressed(path) {
                diagnostics.warning(
                    .unreadFile, "this dump is compressed in a way seeder does not read (it reads .gz and .zst)",
                    at: SourceLocation(file: display(path))
                )
            }
        }
        return planned
    }

    /// The entity a file feeds by its base name, when the mapping has no `sources:`.
    package func entityNamed(byFile path: String) -> Int? {
        guard Source.format(ofFile: path) != nil else { return nil }
        var base = String(DumpCompression.of(file: (path as NSString).lastPathComponent).stripped)
        for suffix in [".json", ".jsonl", ".ndjson"] where base.lowercased().hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count))
            break
        }
        let forms = [Naming.lookupKey(base), Naming.lookupKey(Naming.singular(base))]
        return mapping.entities.firstIndex { entity in
            let names = [Naming.lookupKey(entity.name), Naming.lookupKey(entity.table)]
            return forms.contains { names.contains($0) }
        }
    }

    package func inputFile(
        _ path: String, root: String, entity: Int, keyPath: [String], diagnostics: DiagnosticSink, unreadable: inout Bool
    ) -> InputFile? {
        let absolute = root + "/" + path
        // `realpath` and `stat` directly: through Foundation (a URL resolved component by
        // component, a dictionary of attributes), planning a pages dump's 10,000 files took a
        // third of a second before the first byte was read.
        let resolved = Self.realPath(absolute) ?? URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path
        guard resolved == root || resolved.hasPrefix(root + "/") else {
            diagnostics.error(
                .inputRefused, "this dump file is a link that leaves the dumps directory", at: SourceLocation(file: display(path)))
            return nil
        }
        guard let format = Source.format(ofFile: path) else {
            diagnostics.error(
                .inputRefused, "this file is not a dump seeder reads: \(Source.readableSuffixes)", at: SourceLocation(file: display(path)))
            return nil
        }
        // A FIFO or a device is refused here, by its kind, before anything opens it: opening a
        // FIFO waits for a writer. (`FileByteSource` checks again on the open file.)
        var status = stat()
        guard stat(resolved, &status) == 0 else {
            diagnostics.error(.io, "cannot read this dump file: \(FileKind.reason(errno))", at: SourceLocation(file: display(path)))
            unreadable = true
            return nil
        }
        guard FileKind.isRegular(status.st_mode) else {
            diagnostics.error(
                .io, "cannot read this dump file: \(FileKind.notRegularReason(status.st_mode))", at: SourceLocation(file: display(path)))
            unreadable = true
            return nil
        }
        guard access(resolved, R_OK) == 0 else {
            diagnostics.error(.io, "cannot read this dump file: \(FileKind.reason(errno))", at: SourceLocation(file: display(path)))
            unreadable = true
            return nil
        }
        return InputFile(
            path: display(path), relativePath: path, absolutePath: resolved, entity: entity, keyPath: keyPath, format: format,
            compression: Source.compression(ofFile: path), size: Int(status.st_size), device: UInt64(status.st_dev),
            inode: UInt64(status.st_ino))
    }

    /// The path with every link and `.` or `..` resolved, if it exists.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// How diagnostics name a dump file: the dumps directory as given, then the path in it.
    /// A dump's name with a suffix after its format's that is not one seeder reads
    /// (`users.json.bz2`, `events.ndjson.xz`): a compression it would silently pass over.
    package static func looksCompressed(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent.lowercased()
        return [".json.", ".jsonl.", ".ndjson."].contains { name.contains($0) }
    }

    package func display(_ path: String) -> String {
        let prefix = dumps.hasSuffix("/") ? String(dumps.dropLast()) : dumps
        return prefix == "." ? path : prefix + "/" + path
    }

    /// Every file but directories under `root`, relative and sorted by path (bytes), so the
    /// order never depends on how the file system lists a directory. Hidden files are left out,
    /// and links to directories are not followed. What cannot be read is added to `failures`
    /// with its reason, never left out: a directory that cannot be opened, an entry that cannot
    /// be looked at (a path past `PATH_MAX`), a name that is not UTF-8 (shown by its bytes,
    /// since seeder's paths are text). A dump left unread would otherwise look like a glob that
    /// matches nothing (docs/mapping.md, Sources).
    package static func dumpFiles(under root: String, failures: inout [WalkFailure]) -> [String] {
        var files: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            guard let directory = opendir(relative.isEmpty ? root : root + "/" + relative) else {
                failures.append(
                    WalkFailure(path: relative, place: relative.isEmpty ? .dumpsDirectory : .directory, reason: FileKind.reason(errno)))
                continue
            }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if bytes.first == UInt8(ascii: ".") { continue }
                guard let name = String(validating: bytes, as: UTF8.self) else {
                    let shown = (relative.isEmpty ? "" : relative + "/") + PathText.shown(bytes)
                    failures.append(
                        WalkFailure(path: shown, place: .entry, reason: "its name is not UTF-8, and seeder names files in UTF-8"))
                    continue
                }
                let path = relative.isEmpty ? name : relative + "/" + name
                // Followed if a link, by one `stat`; a link to a directory is not walked. A
                // dangling link is a file, which reading then reports.
                var status = stat(), own = stat()
                let full = root + "/" + path
                if stat(full, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                    if lstat(full, &own) == 0, own.st_mode & S_IFMT == S_IFDIR { pending.append(path) }
                } else if lstat(full, &own) != 0 {
                    failures.append(WalkFailure(path: path, place: .entry, reason: FileKind.reason(errno)))
                } else {
                    files.append(path)
                }
            }
        }
        return files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Shell-style matching per path segment (`SourceGlob`): `*` and `?` never cross `/`, `**`
    /// matches any number of segments, `[abc]` and `[a-z]` match one character.
    package static func glob(_ pattern: String, matches path: String) -> Bool {
        SourceGlob(pattern).matches(path)
    }
}
