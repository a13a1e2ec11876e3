import Foundation
import PackagePlugin

/// Builds an app target's seeds with the app (docs/guides/swiftpm-plugin.md): for each
/// `NAME.seeder.yaml` in the target's folder, `seeder build` of it and the dumps folder `NAME/`
/// beside it into `NAME.sqlite`, which SwiftPM puts in the target's resource bundle
/// (`Bundle.module`). The build runs again when the mapping, a file of the dumps, or the schema
/// file the mapping names changes, and not otherwise.
@main
struct SeederPlugin: BuildToolPlugin {
    static let suffix = ".seeder.yaml"

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        // The mappings are among the target's files (SwiftPM leaves a file of no known type to the
        // plugins); their dumps folders are read from the disk.
        let mappings = target.sourceFiles.map(\.url).filter { $0.lastPathComponent.hasSuffix(Self.suffix) }
            .sorted { $0.path < $1.path }
        guard !mappings.isEmpty else { return [] }
        let seeder = try context.tool(named: "seeder").url
        return mappings.map { Self.command(mapping: $0, seeder: seeder, workDirectory: context.pluginWorkDirectoryURL) }
    }

    /// `seeder build NAME.seeder.yaml NAME/ -o WORK/NAME.sqlite`, with what it reads as inputs.
    static func command(mapping: URL, seeder: URL, workDirectory: URL) -> Command {
        let file = mapping.lastPathComponent
        let name = String(file.dropLast(suffix.count))
        let dumps = mapping.deletingLastPathComponent().appending(path: name)
        let output = workDirectory.appending(path: name + ".sqlite")
        return .buildCommand(
            displayName: "seeder build \(file) -> \(name).sqlite",
            executable: seeder,
            arguments: ["build", mapping.path, dumps.path, "-o", output.path, "--quiet", "--progress", "never"],
            inputFiles: [mapping] + files(under: dumps) + schemaFiles(of: mapping),
            outputFiles: [output])
    }

    /// Every file under `folder`, in a stable order.
    static func files(under folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    /// The app's schema the mapping names (`schema: { template: ..., room: ..., coreData: ... }`),
    /// relative to the mapping: an input too. Read from the text, as seeder's own loader is not
    /// the plugin's to link.
    static func schemaFiles(of mapping: URL) -> [URL] {
        guard let text = try? String(contentsOf: mapping, encoding: .utf8) else { return [] }
        var files: [URL] = []
        for line in text.split(separator: "\n") where line.contains("template:") || line.contains("room:") || line.contains("coreData:") {
            for key in ["template:", "room:", "coreData:"] {
                guard let range = line.range(of: key) else { continue }
                let value = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
                    .prefix { $0 != "}" && $0 != "," && $0 != "#" }.trimmingCharacters(in: CharacterSet(charactersIn: " '\""))
                if !value.isEmpty { files.append(mapping.deletingLastPathComponent().appending(path: value)) }
            }
        }
        return files
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    /// The same for an Xcode project's target (Build Phases > Run Build Tool Plug-ins): its
    /// `NAME.seeder.yaml` files, the dumps folder beside each read from the disk.
    extension SeederPlugin: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            let mappings = target.inputFiles.map(\.url).filter { $0.lastPathComponent.hasSuffix(Self.suffix) }
                .sorted { $0.path < $1.path }
            guard !mappings.isEmpty else { return [] }
            let seeder = try context.tool(named: "seeder").url
            return mappings.map { Self.command(mapping: $0, seeder: seeder, workDirectory: context.pluginWorkDirectoryURL) }
        }
    }
#endif
