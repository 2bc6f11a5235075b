/// The version of this build of Bunting, reported by `bunting version`,
/// `status` and the OpenRPC document.
public enum BuntingVersion {
    public static let current = "0.1.0"
}
