import Decisions
import ExampleSupport
import Foundation
import SearchFeature

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The `search` demo: the search screen as text, run by a real Store with live deps and the
// continuous clock, typed into from standard input or a script.

// NB: first, before anything opens a file or a socket.
let streams = StandardStreams.prepare()

/// Reports a failed write on standard error, or standard output if that is what failed, and exits
/// with status 1.
@Sendable func failWriting(_ failure: WriteFailure) -> Never {
  StandardStreams.exit(reporting: failure, program: "search", on: [streams.error, streams.output])
}

/// Writes to standard error, or fails.
func writeError(_ text: String) {
  do { try streams.error.write(text) } catch { failWriting(error) }
}

let options: Options
do {
  options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  writeError("search: \(error)\n\n\(Options.usage)\n")
  exit(2)
}
if options.help {
  do { try streams.output.write(Options.usage + "\n") } catch { failWriting(error) }
  exit(0)
}

// NB: the `--record` file's folder is checked now, not after the whole session.
if let path = options.record {
  let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
  var isFolder: ObjCBool = false
  guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
  else {
    writeError("search: --record: there is no folder \(folder) to write \(path) in\n")
    exit(2)
  }
  if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
    writeError("search: --record: \(path) is a folder, not a file\n")
    exit(2)
  }
}

let source: SearchSource
if let url = options.source {
  source = .http(url: url, timeout: options.timeout, maxBytes: options.maxBytes)
} else {
  do {
    source = .bundled(
      facts: try SearchSource.bundledFacts(),
      delay: .milliseconds(options.delayMilliseconds),
      failureRate: options.failureRate,
      seed: options.seed)
  } catch {
    writeError("search: \(error)\n")
    exit(1)
  }
}

let screen = Screen(state: SearchFeature.State(), output: streams.output, fail: failWriting)
// NB: the diagnostics hook runs on the store's executor, in order: states print in the order they
// happened.
let store = Store<SearchFeature>(
  state: SearchFeature.State(), deps: .live(source: source),
  diagnostics: { diagnostic in
    if case .state(let state) = diagnostic { screen.show(state) }
  },
  recorder: options.record.map { _ in FlightRecorder(capacity: 10_000) })

/// Writes the flight recording to the `--record` file, if any, then exits with `status`; exits
/// with 1, saying why, if the recording cannot be written.
func finish(status: Int32) async -> Never {
  if let path = options.record, let recording = await store.flightRecording(note: "search --record")
  {
    do {
      let json = try recording.json()
      try Data(json.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      let reason = (error as? FlightRecordingError)?.description ?? error.localizedDescription
      writeError("search: could not write the recording to \(path): \(reason)\n")
      exit(1)
    }
  }
  exit(status)
}

/// Performs one step of the session.
func perform(_ step: Step) async {
  switch step {
  case .type(let query):
    await store.send(.view(.queryChanged(query)))
  case .retry:
    await store.send(.view(.retry))
  case .wait(let duration):
    try? await ContinuousClock().sleep(for: duration)
  case .settle:
    await store.settle()
  case .quit:
    await store.stop()
    await finish(status: 0)
  }
}

if let script = options.script {
  for step in script { await perform(step) }
} else {
  if isatty(STDIN_FILENO) == 1 {
    writeError(
      "Type a query and press Enter; each line is the whole query. :retry, :quit; --help for more.\n"
    )
  }
  let input = InputReader(maxLineBytes: Step.maxBytes)
  var number = 0
  for await line in input.lines {
    number += 1
    switch line {
    case .tooLong:
      writeError("search: line \(number): a step may be at most \(Step.maxBytes) bytes long\n")
    case .line(let text):
      do {
        await perform(try Step.parse(text))
      } catch {
        writeError("search: line \(number): \(error)\n")
      }
    }
    input.handled()
  }
}
// The steps ended: let the search in flight finish, then leave.
await store.settle()
await finish(status: 0)
