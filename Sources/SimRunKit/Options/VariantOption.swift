import ArgumentParser

/// `--variant V`, shared by the commands that run a scenario or a trace's schedule.
struct VariantOption: ParsableArguments {
    @Option(help: "The variant (default: the scenario's first, or the trace's own).") var variant: String?
}
