#if canImport(Glibc)
import Glibc
#endif
import BuntingCLI

exit(BuntingCommand.main(Array(CommandLine.arguments.dropFirst())))
