import CSimInterpose

/// Which build of the program is running, as a trace header records it (`TraceHeader.build`).
///
/// A label the user gives (`--build-label`, carried to simrun's child processes in
/// ``environmentKey``) wins; otherwise the executable's own build id, read from the loaded image
/// (`build-id:<hex>` from ELF's GNU build-id note, `uuid:<hex>` from Mach-O's LC_UUID). Two builds
/// of the same code at different commits have different ids, so a replay can tell "another build"
/// without the user saying anything. Empty when neither is available, and in a process that is not
/// a simrun executable (a test runner calling `SimRun.run`, SimTesting): its build id names the
/// host, not a build of the user's scenarios. A replay never treats an empty build as another build
/// (except `replay --bisect`, which judges every build).
public enum BuildIdentity {
    /// The environment variable that carries a `--build-label` to child processes.
    public static let environmentKey = "SIMRUN_BUILD_LABEL"

    /// The label given for the command being run in this process (`SimRun.run` binds it while a
    /// command with `--build-label` runs), ahead of the environment and the build id.
    @TaskLocal public static var label: String?

    /// This build: the bound label, else ``environmentKey``, else the executable's build id (in a
    /// simrun executable only).
    public static var current: String {
        if let label, !label.isEmpty { return "label:\(label)" }
        if let value = getenv(environmentKey), value.pointee != 0 { return "label:\(String(cString: value))" }
        return ChildProcess.isSelfExecutable ? executableBuildID : ""
    }

    /// The running executable's build id, or empty when this platform does not tell it. Read once:
    /// it describes the loaded image, which never changes while the process lives.
    public static let executableBuildID: String = {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = Int(simrun_executable_build_id(&bytes, Int32(bytes.count)))
        guard count > 0 else { return "" }
        let hex = bytes.prefix(count).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
        #if canImport(Darwin)
            return "uuid:" + hex
        #else
            return "build-id:" + hex
        #endif
    }()
}

