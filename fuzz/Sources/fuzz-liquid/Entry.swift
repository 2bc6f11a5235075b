import FuzzSupport

@main enum Entry {
    static func main() { runHarness(checkLiquid) }
}
