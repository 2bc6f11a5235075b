#if canImport(Glibc)
import Glibc
#endif

/// Files and directories Bunting may write to, delete from or believe: its
/// own. A path another user can plant (a symbolic link to the user's files,
/// a directory made first by someone else, a note written by hand) must not
/// lead Bunting to truncate, delete or trust what it did not create.
///
/// So a directory Bunting keeps files in is opened once, without following
/// a symbolic link, and checked on the open descriptor: a directory, owned
/// by this process's user, that no one else can write. Its files are then
/// reached through that descriptor (`openat`, `unlinkat`), each opened
/// without following a link and checked the same way, so that swapping a
/// path for a link after the check changes nothing.
public enum OwnedFiles {
    /// Why the file `info` describes (from `fstat` or `lstat`) is not one
    /// of `kind` (`S_IFDIR`, `S_IFREG`) owned by this user and writable by
    /// no one else; nil when it is.
    public static func distrust(_ info: stat, kind: mode_t) -> String? {
        let type = info.st_mode & S_IFMT
        guard type == kind else {
            if type == S_IFLNK { return "it is a symbolic link" }
            return kind == S_IFDIR ? "it is not a directory" : "it is not a regular file"
        }
        let user = geteuid()
        guard info.st_uid == user else { return "it belongs to user \(info.st_uid), not to this user (\(user))" }
        guard info.st_mode & 0o022 == 0 else { return "others can write to it (mode \(octal(info.st_mode & 0o7777)))" }
        return nil
    }

    /// Opens the directory at `path`, making it first (mode 0700, and its
    /// parent if that is missing) when there is none: not through a
    /// symbolic link, owned by this user, writable by no one else. The
    /// descriptor is the caller's to close.
    public static func openPrivateDirectory(_ path: String) -> Result<Int32, FileIOError> {
        if mkdir(path, 0o700) != 0 && errno == ENOENT, let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            _ = mkdir(String(path[..<slash]), 0o700)
            _ = mkdir(path, 0o700)
        }
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            // O_NOFOLLOW on a link fails with ELOOP; O_DIRECTORY on a file with ENOTDIR.
            if code == ELOOP { return .failure(FileIOError(errno: code, message: "\(path): it is a symbolic link")) }
            return .failure(.last("cannot open \(path)"))
        }
        return checked(fd, path, kind: S_IFDIR)
    }

    /// Opens `name` in the directory `directory` (a descriptor from
    /// `openPrivateDirectory`) with `flags` (and `mode`, when creating),
    /// never through a symbolic link; an existing file must be a regular
    /// file of this user's that no one else can write. Not `O_TRUNC`: the
    /// file is checked once opened, and a truncation would come before.
    /// `label` names the file in messages (`name` by default).
    public static func openFile(
        _ name: String, in directory: Int32, flags: Int32, mode: mode_t = 0o600, label: String? = nil
    ) -> Result<Int32, FileIOError> {
        precondition(flags & O_TRUNC == 0, "truncate a file only once it is known to be ours")
        let label = label ?? name
        let fd = openat(directory, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, mode)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP { return .failure(FileIOError(errno: code, message: "\(label): it is a symbolic link")) }
            return .failure(.last("cannot open \(label)"))
        }
        return checked(fd, label, kind: S_IFREG)
    }

    private static func checked(_ fd: Int32, _ path: String, kind: mode_t) -> Result<Int32, FileIOError> {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = FileIOError.last("cannot stat \(path)")
            close(fd)
            return .failure(failure)
        }
        if let why = distrust(info, kind: kind) {
            close(fd)
            return .failure(FileIOError(errno: EPERM, message: "\(path): \(why)"))
        }
        return .success(fd)
    }

    public static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
