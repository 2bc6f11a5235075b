#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingRuntime

/// The database file removed, renamed or replaced under a running server
/// (`rm -rf` of the state directory, a clean-up script, a restore): the
/// open connection goes on writing to a file no one will open again, and
/// everything committed from then on would be gone at exit. So each commit
/// first checks that the path still names the file that was opened (same
/// device and inode); when it does not, what the file holds for the server
/// (the profile, the current user's data, the queue) moves into memory
/// with this turn's writes, the disk is given up for the rest of the run,
/// and every event subscription is told, as when the directory cannot be
/// used at all. The file is not recreated: the directory's lock went with
/// it, and a server on a directory it no longer holds could share it.
extension SQLiteStore {
    /// Device and inode of the file at `path` now; nil when there is none.
    static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Whether the path still names the file the connection has open.
    var fileIsInPlace: Bool {
        guard let openedFile else { return true }
        return Self.identity(of: path) == openedFile
    }

    /// Moves to memory after the file was found gone: commits what is
    /// pending to the file still open, reads back what the server needs,
    /// and closes it.
    func carryOnInMemoryAfterRemoval() {
        guard memory == nil, connection != nil else { return }
        let reason = "\(path) was removed or replaced while the server ran"
        commitToOpenFile()
        let kept = MemoryStore()
        if let storedProfile { try? kept.saveProfile(storedProfile) }
        let user = storedProfile?.userId ?? ""
        let stored = loadUser(user, caches: true)
        for (channel, cache) in stored.caches { try? kept.saveChannelCache(user: user, channel: channel, cache: cache) }
        for (channel, states) in stored.itemStates {
            // As text, whatever type keys the item states.
            for (itemId, state) in states {
                try? kept.saveItemState(user: user, channel: channel, itemId: String(describing: itemId), state: state)
            }
        }
        if !stored.attributes.isEmpty { try? kept.saveAttributes(user: user, attributes: stored.attributes) }
        for event in queuedEvents(limit: Int(Int32.max)) { try? kept.enqueue(event) }
        transaction = nil
        redo = Redo()
        if let database = connection?.database {
            connection = nil
            database.close()
        }
        giveUpDisk(reason, keeping: kept)
    }
}

/// Which file a path named: what a check at each commit compares.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
}
