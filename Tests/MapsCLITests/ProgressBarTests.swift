import Testing

@testable import MapsCLI

/// The import progress bar's line.
@Suite struct ProgressBarTests {
    @Test func drawsThePhaseTheBarAndThePercentage() {
        #expect(ProgressBar.line(phase: "reading", fraction: 0, width: 10) == "reading  [----------]   0%")
        #expect(ProgressBar.line(phase: "writing", fraction: 0.456, width: 10) == "writing  [####------]  45%")
        #expect(ProgressBar.line(phase: "writing", fraction: 1, width: 10) == "writing  [##########] 100%")
    }

    @Test func saysTheTimeLeftWhenKnown() {
        #expect(
            ProgressBar.line(phase: "importing", fraction: 0.5, width: 4, remaining: 65.2)
                == "importing [##--]  50%  1m06s left")
        #expect(
            ProgressBar.line(phase: "scanning", fraction: 0.9, width: 4, remaining: 3)
                == "scanning [###-]  90%  3s left")
        #expect(
            ProgressBar.line(phase: "scanning", fraction: 0.9, width: 4, remaining: .infinity) == "scanning [###-]  90%"
        )
    }

    @Test func clampsFractionsOutsideTheRange() {
        #expect(ProgressBar.line(phase: "reading", fraction: 1.7, width: 4) == "reading  [####] 100%")
        #expect(ProgressBar.line(phase: "reading", fraction: -3, width: 4) == "reading  [----]   0%")
        #expect(ProgressBar.line(phase: "reading", fraction: .nan, width: 4) == "reading  [----]   0%")
    }
}
