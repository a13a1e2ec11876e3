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

    /// The app's schema file the mapping names (`schema: { template: FILE }` or `{ room: FILE }`),
    /// relative to the mapping unless absolute: an input too. A mapping this reader cannot read
    /// is one seeder refuses as well, or one it reads otherwise (docs/guides/swiftpm-plugin.md,
    /// The schema file): a warning says so, and seeder's build reports the mapping's errors.
    static func schemaFiles(of mapping: URL) -> [URL] {
        guard let data = FileManager.default.contents(atPath: mapping.path), let text = String(data: data, encoding: .utf8) else {
            return []
        }
        let paths: [String]
        do {
            paths = try MappingSchemaReader.paths(inMapping: text)
        } catch {
            Diagnostics.warning(
                "\(mapping.path):\(error.line):\(error.column): the plugin cannot find the schema file this mapping names "
                    + "(\(error.message)): a change to that file alone will not rebuild the seed")
            return []
        }
        return paths.map { MappingSchemaReader.file($0, besideMapping: mapping) }
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
