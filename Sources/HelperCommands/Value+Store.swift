import CLI
import Configuration
import Store

// The store's names as the command line takes them (glance import's --task, the data commands').
extension Value {
    /// A store name (a task's, a metric's): 1 to 64 bytes.
    public static func storeName(_ what: String) -> ValueParser<String> {
        ValueParser("NAME") { (text, option) throws(UsageError) in
            do throws(StoreError) {
                try Store.checkName(text, what: what)
            } catch {
                throw UsageError("\(option): \(error.message)")
            }
            return text
        }
    }
}
