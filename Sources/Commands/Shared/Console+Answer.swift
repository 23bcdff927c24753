import CLI
import Platform

extension Console {
    /// A built-in's answer written: its text on standard output, or its complaint (64).
    func answer(_ answer: Answer) -> Outcome {
        switch answer {
        case .text(let text): return result(text)
        case .refused(let message):
            complain(message)
            return .usage
        }
    }
}
