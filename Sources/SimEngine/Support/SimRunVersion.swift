/// The version written into every trace header.
public enum SimRunVersion {
    public static let current = "0.1.0"
}
