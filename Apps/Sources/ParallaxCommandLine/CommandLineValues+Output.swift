import Foundation

extension CommandLineValues {
    /// What an output path is: a file the command writes, or a folder it
    /// writes files into (created, with any missing parents, if needed).
    package enum OutputKind: Sendable {
        case file, folder
    }

    /// Why `path`, given to `option`, cannot be written, or `nil` when it
    /// can: checked before any work starts, so a long render never ends in
    /// a failed write.
    ///
    /// A file needs an existing, writable folder and must not itself be a
    /// folder. A folder is made on demand, so it must not be an existing
    /// file, and the nearest part of its path that exists must be a
    /// writable folder.
    package static func outputProblem(_ path: String, option: String, kind: OutputKind,
                                     fileManager: FileManager = .default) -> String? {
        func refuse(_ reason: String) -> String { "\(option) '\(path)' cannot be written: \(reason)." }
        guard !path.isEmpty else { return "\(option) must not be empty." }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isFolder: ObjCBool = false
        let exists = fileManager.fileExists(atPath: url.path, isDirectory: &isFolder)
        switch kind {
        case .file:
            if exists, isFolder.boolValue { return refuse("it is a folder, not a file") }
            let parent = url.deletingLastPathComponent()
            var parentIsFolder: ObjCBool = false
            guard fileManager.fileExists(atPath: parent.path, isDirectory: &parentIsFolder) else {
                return refuse("there is no folder '\(parent.path)'")
            }
            guard parentIsFolder.boolValue else { return refuse("'\(parent.path)' is not a folder") }
            if exists {
                guard fileManager.isWritableFile(atPath: url.path) else { return refuse("the file is not writable") }
            } else {
                guard fileManager.isWritableFile(atPath: parent.path) else {
                    return refuse("the folder '\(parent.path)' is not writable")
                }
            }
            return nil
        case .folder:
            if exists {
                guard isFolder.boolValue else { return refuse("it is a file, not a folder") }
                guard fileManager.isWritableFile(atPath: url.path) else { return refuse("the folder is not writable") }
                return nil
            }
            var ancestor = url.deletingLastPathComponent()
            while true {
                var ancestorIsFolder: ObjCBool = false
                if fileManager.fileExists(atPath: ancestor.path, isDirectory: &ancestorIsFolder) {
                    guard ancestorIsFolder.boolValue else { return refuse("'\(ancestor.path)' is not a folder") }
                    guard fileManager.isWritableFile(atPath: ancestor.path) else {
                        return refuse("the folder '\(ancestor.path)' is not writable")
                    }
                    return nil
                }
                let up = ancestor.deletingLastPathComponent()
                if up.path == ancestor.path { return refuse("no part of the path exists") }
                ancestor = up
            }
        }
    }
}
