/// The version written into every trace header.
public enum SimRunVersion {
    /// This build's version, written into every trace header.
    public static let current = "0.1.0"
}
