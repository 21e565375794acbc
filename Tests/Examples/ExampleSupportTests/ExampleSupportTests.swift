import ExampleSupport
import Foundation
import Testing

@Suite struct SanitizedForTerminalTests {
  @Test func controlCharactersBecomeVisibleEscapes() {
    #expect(sanitizedForTerminal("\u{1B}[2Jgone") == #"\u{1B}[2Jgone"#)
    #expect(sanitizedForTerminal("bell\u{07}") == #"bell\u{07}"#)
    #expect(sanitizedForTerminal("\u{0}\u{7F}\u{9B}31m") == #"\u{00}\u{7F}\u{9B}31m"#)
    #expect(sanitizedForTerminal("carriage\rreturn") == #"carriage\u{0D}return"#)
  }

  @Test func newlinesTabsAndOtherTextAreKept() {
    let text = "line one\n\tline two: ünïcödé, 日本, 🙂, U+00A0:\u{A0}"
    #expect(sanitizedForTerminal(text) == text)
  }

  @Test func oneLineTextEscapesNewlinesToo() {
    #expect(sanitizedForTerminal("a\nb\tc", keepingNewlines: false) == #"a\u{0A}b\u{09}c"#)
  }

  @Test func theResultHasNoControlCharactersLeft() {
    let all = String(String.UnicodeScalarView((0...0x9F).compactMap(Unicode.Scalar.init)))
    let safe = sanitizedForTerminal(all, keepingNewlines: false)
    #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
  }
}

@Suite struct ExcerptTests {
  @Test func shortTextIsKept() {
    #expect(excerpt("app://stories/1") == "app://stories/1")
    #expect(excerpt(String(repeating: "x", count: excerptLimit)).count == excerptLimit)
  }

  @Test func longTextIsCutWithAnEllipsis() {
    let cut = excerpt(String(repeating: "x", count: 1_000_000))
    #expect(cut == String(repeating: "x", count: excerptLimit) + "…")
  }

  @Test func theLimitCountsUnicodeScalarsSoOneHugeCharacterIsCutToo() {
    // One character: a letter with a million combining accents.
    let huge = "e" + String(repeating: "\u{301}", count: 1_000_000)
    #expect(excerpt(huge).unicodeScalars.count == excerptLimit + 1)
  }
}

@Suite struct CommandLineValuesTests {
  @Test(arguments: [
    ("http://127.0.0.1:8000/fact.json", "http://127.0.0.1:8000/fact.json"),
    ("HTTP://127.0.0.1:8000/x", "http://127.0.0.1:8000/x"),
    ("HtTpS://example.com", "https://example.com"),
    ("http://localhost:65535", "http://localhost:65535"),
    ("http://user@example.com:1/", "http://user@example.com:1/"),
  ])
  func goodURLsParseWithALowerCaseScheme(text: String, url: String) throws {
    #expect(try parseHTTPURL(text, option: "--source").absoluteString == url)
  }

  @Test(arguments: [
    ("ftp://example.com", #"--source takes an http or https URL, not "ftp://example.com""#),
    ("example.com", #"--source takes an http or https URL, not "example.com""#),
    ("http://", #"--source takes a URL with a host, not "http://""#),
    ("http://:80/", #"--source takes a URL with a host, not "http://:80/""#),
    ("http://h:99999/", #"--source: the port must be a number from 1 to 65535, not "99999""#),
    ("http://h:0/", #"--source: the port must be a number from 1 to 65535, not "0""#),
    ("http://h:/", #"--source: the port must be a number from 1 to 65535, not """#),
    ("http://h:8x/", #"--source: the port must be a number from 1 to 65535, not "8x""#),
    (
      "http://[::1]:8000/",
      #"--source: IPv6 addresses are not supported, use a host name or an IPv4 address, not "#
        + #""http://[::1]:8000/""#
    ),
  ])
  func badURLsSayWhatIsWrong(text: String, message: String) {
    #expect(throws: OptionError(message)) { try parseHTTPURL(text, option: "--source") }
  }

  @Test func aHugeURLIsNotEchoedWhole() throws {
    let error = try #require(throws: OptionError.self) {
      try parseHTTPURL("gopher://" + String(repeating: "x", count: 100_000), option: "--source")
    }
    #expect(error.description.count < 100)
  }

  @Test func timeoutsRangeFromAMillisecondToAnHour() throws {
    #expect(try parseTimeout("2") == .seconds(2))
    #expect(try parseTimeout("0.001") == .milliseconds(1))
    #expect(try parseTimeout("3600") == .seconds(3600))
    #expect(throws: OptionError(#"--timeout must be at least 0.001 s (1 ms), not "0.0009""#)) {
      try parseTimeout("0.0009")
    }
    #expect(throws: OptionError(#"--timeout must be at least 0.001 s (1 ms), not "0""#)) {
      try parseTimeout("0")
    }
    #expect(throws: OptionError(#"--timeout must be at most 3600 s (an hour), not "3601""#)) {
      try parseTimeout("3601")
    }
    #expect(throws: OptionError(#"--timeout takes seconds, from 0.001 to 3600, not "nan""#)) {
      try parseTimeout("nan")
    }
    #expect(throws: OptionError(#"--timeout takes seconds, from 0.001 to 3600, not "inf""#)) {
      try parseTimeout("inf")
    }
  }

  @Test func byteCountsRangeFromOneToAGibibyte() throws {
    #expect(try parseByteCount("1") == 1)
    #expect(try parseByteCount("1073741824") == 1 << 30)
    for bad in ["0", "-1", "1073741825", "8MiB", ""] {
      #expect(
        throws: OptionError(
          "--max-bytes takes a whole number of bytes from 1 to 1073741824, not \(bad.debugDescription)"
        )
      ) { try parseByteCount(bad) }
    }
  }

  @Test func byteCountsReadAsUnits() {
    #expect(formatByteCount(8 << 20) == "8 MiB")
    #expect(formatByteCount(64 << 10) == "64 KiB")
    #expect(formatByteCount(1000) == "1000 bytes")
    #expect(formatByteCount(1) == "1 byte")
    #expect(HTTPFailure.tooLarge(limit: 8 << 20).description == "response larger than 8 MiB")
  }
}

@Suite struct ArgumentReaderTests {
  /// Reads `arguments` as one option and its value, with `read`.
  private func read<Value>(
    _ arguments: [String], _ read: (inout ArgumentReader, String) throws(OptionError) -> Value
  ) throws(OptionError) -> Value {
    var reader = ArgumentReader(arguments)
    let option = reader.next() ?? ""
    return try read(&reader, option)
  }

  @Test func argumentsComeInOrderThenNil() throws {
    var reader = ArgumentReader(["--delay", "5", "link"])
    #expect(reader.next() == "--delay")
    #expect(try reader.value(for: "--delay") == "5")
    #expect(reader.next() == "link")
    #expect(reader.next() == nil)
  }

  @Test func aMissingValueOrAnOptionInItsPlaceNeedsAValue() {
    #expect(throws: OptionError("--delay needs a value")) {
      try read(["--delay"]) { reader, option throws(OptionError) in try reader.value(for: option) }
    }
    #expect(throws: OptionError("--delay needs a value")) {
      try read(["--delay", "--seed"]) { reader, option throws(OptionError) in
        try reader.value(for: option)
      }
    }
  }

  @Test func wholeNumbersAreCheckedAgainstTheirRange() throws {
    let delay = try read(["--delay", "60000"]) { reader, option throws(OptionError) in
      try reader.wholeNumber(for: option, in: 0...60_000, of: "milliseconds")
    }
    #expect(delay == 60_000)
    #expect(throws: OptionError(#"--delay takes milliseconds from 0 to 60000, not "60001""#)) {
      try read(["--delay", "60001"]) { reader, option throws(OptionError) in
        try reader.wholeNumber(for: option, in: 0...60_000, of: "milliseconds")
      }
    }
    #expect(throws: OptionError(#"--seed takes a whole number of 0 or more, not "-1""#)) {
      try read(["--seed", "-1"]) { reader, option throws(OptionError) in
        try reader.wholeNumber(for: option, in: 0...UInt64.max)
      }
    }
    let seed = try read(["--seed", "18446744073709551615"]) { reader, option throws(OptionError) in
      try reader.wholeNumber(for: option, in: 0...UInt64.max)
    }
    #expect(seed == .max)
  }

  @Test func numbersShowWholeBoundsWithoutAFraction() throws {
    let rate = try read(["--rate", "0.25"]) { reader, option throws(OptionError) in
      try reader.number(for: option, in: 0...1)
    }
    #expect(rate == 0.25)
    #expect(throws: OptionError(#"--rate takes a number from 0 to 1, not "nan""#)) {
      try read(["--rate", "nan"]) { reader, option throws(OptionError) in
        try reader.number(for: option, in: 0...1)
      }
    }
    #expect(throws: OptionError(#"--rate takes a number from 0.5 to 2, not "3""#)) {
      try read(["--rate", "3"]) { reader, option throws(OptionError) in
        try reader.number(for: option, in: 0.5...2)
      }
    }
  }

  @Test(arguments: ["", "/tmp/", "folder/"])
  func aFolderOrNothingIsNoFilePath(path: String) {
    #expect(throws: OptionError("--out takes the path of a file, not \(path.debugDescription)")) {
      try read(["--out", path]) { reader, option throws(OptionError) in
        try reader.filePath(for: option)
      }
    }
  }

  @Test func choicesAreNamedInTheMessage() throws {
    let choices: KeyValuePairs<String, Int> = ["one": 1, "two": 2, "three": 3]
    let two = try read(["--n", "two"]) { reader, option throws(OptionError) in
      try reader.choice(for: option, among: choices)
    }
    #expect(two == 2)
    #expect(throws: OptionError(#"--n takes one, two or three, not "four""#)) {
      try read(["--n", "four"]) { reader, option throws(OptionError) in
        try reader.choice(for: option, among: choices)
      }
    }
    #expect(throws: OptionError(#"--n takes one or two, not "four""#)) {
      try read(["--n", "four"]) { reader, option throws(OptionError) in
        try reader.choice(for: option, among: ["one": 1, "two": 2])
      }
    }
  }

  @Test func aParserFailureIsPrefixedWithTheOption() throws {
    struct Bad: Error, CustomStringConvertible {
      var description: String { "step 2: no such step" }
    }
    #expect(throws: OptionError("--script, step 2: no such step")) {
      try read(["--script", "a;b"]) { reader, option throws(OptionError) in
        try reader.parsed(for: option) { _ -> Int in throw Bad() }
      }
    }
  }

  @Test func echoedValuesCannotWriteToTheTerminal() {
    let hostile = "\u{1B}[2J\u{9B}31m"
    let message = ArgumentReader.unknownOption(hostile).description
    #expect(
      !message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    #expect(message == #"unknown option "\u{1B}[2J\u{9B}31m""#)
    #expect(quoted(String(repeating: "x", count: 100_000)).count < 100)
  }
}

@Suite struct DeadlineTests {
  @Test func workThatFinishesInTimeReturnsItsValue() async throws {
    #expect(try await withDeadline(.seconds(60)) { 42 } == 42)
  }

  @Test func workThatOutlivesTheDeadlineIsCancelledAndTimesOut() async throws {
    let error = try await #require(throws: HTTPFailure.self) {
      try await withDeadline(.milliseconds(1)) { () async throws -> Int in
        // Waits until cancelled: only the deadline can end it.
        let (stream, _) = AsyncStream<Int>.makeStream()
        for await value in stream { return value }
        throw CancellationError()
      }
    }
    #expect(error == .timedOut(seconds: 0.001))
    #expect(error.description == "no answer within 0.001 s")
  }
}

@Suite struct SeededRandomTests {
  @Test func theSameSeedGivesTheSameNumbers() {
    var first = SeededRandom(seed: 7)
    var second = SeededRandom(seed: 7)
    var other = SeededRandom(seed: 8)
    let numbers = (0..<10).map { _ in first.next() }
    #expect((0..<10).map { _ in second.next() } == numbers)
    #expect((0..<10).map { _ in other.next() } != numbers)
  }

  @Test func numbersStayInTheirRanges() {
    var random = SeededRandom(seed: 1)
    for _ in 0..<1_000 {
      #expect((0..<1).contains(random.nextUnit()))
      #expect((0..<3).contains(random.next(below: 3)))
    }
  }
}
