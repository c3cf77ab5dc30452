/// What a trace is a recording of: the scenario, variant, seed and strategy that reproduce it.
///
/// Written as the trace's first zstd frame, after the magic bytes `SIMTRACE` and the format version.
/// It holds nothing host-specific (no time stamps, host names or pids) so that the same run writes
/// the same decompressed bytes. Format 2 added ``build``; format 1 traces read with an empty one.
public struct TraceHeader: Sendable, Hashable {
    /// The format this build writes and the newest it reads.
    public static let currentFormatVersion: UInt32 = 2
    /// The first eight decompressed bytes of every trace.
    public static let magic: [UInt8] = Array("SIMTRACE".utf8)

    /// The format the trace was written in (`currentFormatVersion` for new traces).
    public var formatVersion: UInt32
    /// The simrun version that wrote the trace (informational).
    public var toolVersion: String
    /// The scenario's id, e.g. `lost-input`.
    public var scenario: String
    /// The scenario variant, e.g. `buggy` or `fixed`.
    public var variant: String
    /// The seed the run started from.
    public var seed: UInt64
    /// The strategy and its parameters, e.g. `pct:depth=3`.
    public var strategy: String
    /// Further options of the run, in the order given.
    public var options: [TraceOption]
    /// The build of the program that recorded the trace: its executable's build id
    /// (`build-id:…` on ELF, `uuid:…` on Mach-O) or the label the user gave it (`--build-label`).
    /// Empty when unknown (format 1 traces, a program whose build id cannot be read). A replay on
    /// another build follows the schedule by identity and judges that build.
    public var build: String

    /// A header for a new trace (format version defaults to the current one).
    public init(
        formatVersion: UInt32 = TraceHeader.currentFormatVersion, toolVersion: String, scenario: String,
        variant: String, seed: UInt64, strategy: String, options: [TraceOption] = [], build: String = ""
    ) {
        self.formatVersion = formatVersion
        self.toolVersion = toolVersion
        self.scenario = scenario
        self.variant = variant
        self.seed = seed
        self.strategy = strategy
        self.options = options
        self.build = build
    }
}
