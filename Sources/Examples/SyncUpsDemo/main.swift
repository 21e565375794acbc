import Decisions
import DecisionsTesting
import ExampleSupport
import Foundation
import SyncUps

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The `syncups` app: SyncUps as text, run by a real Store whose sync-ups are kept in a JSON file,
// driven by commands from standard input or a script.

// NB: first, before anything opens a file.
let streams = StandardStreams.prepare()

/// Reports a failed write on standard error, or standard output if that is what failed, and exits
/// with status 1.
@Sendable func failWriting(_ failure: WriteFailure) -> Never {
  StandardStreams.exit(reporting: failure, program: "syncups", on: [streams.error, streams.output])
}

/// Writes to standard error, or fails.
func writeError(_ text: String) {
  do { try streams.error.write(text) } catch { failWriting(error) }
}

/// Writes to standard output, or fails.
func write(_ text: String) {
  do { try streams.output.write(text) } catch { failWriting(error) }
}

let options: Options
do {
  options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  writeError("syncups: \(error)\n\n\(Options.usage)\n")
  exit(2)
}
if options.help {
  write(Options.usage + "\n")
  exit(0)
}

let dataURL = options.data ?? Options.defaultData
// NB: checked now: a folder where the file should be could never be read or written.
var isFolder: ObjCBool = false
if FileManager.default.fileExists(atPath: dataURL.path, isDirectory: &isFolder), isFolder.boolValue
{
  writeError("syncups: --data: \(dataURL.path) is a folder, not a file\n")
  exit(2)
}
// NB: the `--record` file's folder is checked now, not after the whole session.
if let path = options.record {
  let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
  guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
  else {
    writeError("syncups: --record: there is no folder \(folder) to write \(path) in\n")
    exit(2)
  }
  if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
    writeError("syncups: --record: \(path) is a folder, not a file\n")
    exit(2)
  }
}
let file = JSONFile<IdentifiedArray<SyncUp>>(url: dataURL, version: 1)
// NB: a script's time passes only when it says `wait`, so its output is the same on every run.
let scriptedClock: TestClock? = options.script == nil ? nil : TestClock()
let clock: any Clock<Duration> = scriptedClock ?? ContinuousClock()
let access = options.speechAccess ?? (options.speech == nil ? .restricted : .authorized)
var speech = SpeechRecognizer.fake(
  lines: (options.speech ?? "").split(separator: " ").map(String.init), every: .seconds(1),
  on: clock)
speech.authorizationStatus = { access }
speech.requestAuthorization = { access }

let screen = Screen(output: streams.output, fail: failWriting)
// NB: the diagnostics hook runs on the store's executor, in order: screens print in the order the
// states happened.
let store = Store<SyncUpsApp>(
  state: SyncUpsApp.State(file: .loading),
  deps: SyncUpsApp.Deps(
    file: .file(file, clock: clock), now: { Date() }, uuid: { UUID() },
    detail: SyncUpDetail.Deps(
      authorizationStatus: { access },
      openSettings: { writeError("syncups: (the system's settings would open here)\n") }),
    record: RecordMeeting.Deps(clock: clock, speech: speech)),
  diagnostics: { diagnostic in
    if case .state(let state) = diagnostic { screen.show(state) }
  },
  recorder: options.record.map { _ in FlightRecorder(capacity: 10_000) })

/// Writes the flight recording to the `--record` file, if any; exits with 1, saying why, if it
/// cannot be written.
func writeRecording() async {
  guard let path = options.record,
    let recording = await store.flightRecording(note: "syncups --record")
  else { return }
  do {
    let json = try recording.json()
    try Data(json.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
  } catch {
    let reason = (error as? FlightRecordingError)?.description ?? error.localizedDescription
    writeError("syncups: could not write the recording to \(path): \(reason)\n")
    exit(1)
  }
}

/// Saves what is pending, stops the store and exits: with 1 if the sync-ups could not be saved.
func quit() async -> Never {
  await store.send(.file(.saveNowRequested))
  // NB: not `settle()`: a meeting's timer on the real clock never ends by itself.
  let deadline = ContinuousClock.now + .seconds(10)
  while ContinuousClock.now < deadline {
    let state = await store.state.syncUps
    if !state.isWriting, !state.isWaitingToSave, !state.hasUnsavedChanges || !state.isLoaded {
      break
    }
    try? await Task.sleep(for: .milliseconds(5))
  }
  let state = await store.state.syncUps
  await store.stop()
  await writeRecording()
  if let error = state.saveError {
    writeError("syncups: the sync-ups could not be saved: \(error)\n")
    exit(1)
  }
  if state.isWriting || (state.isLoaded && state.hasUnsavedChanges) {
    writeError("syncups: the sync-ups were still being saved after 10 seconds\n")
    exit(1)
  }
  exit(0)
}

/// Performs one command; a command that does not fit the screen shown says why.
func perform(_ command: Command, line: Int?) async {
  let place = line.map { "line \($0): " } ?? ""
  switch command {
  case .quit:
    await quit()
  case .help:
    write(Command.summary + "\n")
    return
  case .show:
    screen.show(await store.state, always: true)
    return
  case .wait(let seconds):
    if let scriptedClock {
      await scriptedClock.advance(by: .seconds(seconds))
    } else {
      try? await Task.sleep(for: .seconds(seconds))
    }
    return
  default:
    break
  }
  do {
    for event in try command.events(in: await store.state, newID: { UUID() }) {
      await store.send(event)
    }
  } catch {
    writeError("syncups: \(place)\(error)\n")
  }
  // NB: on the scripted clock, the work the command started (a read of the file, a check of the
  // speech authorisation) ends before the next command: waits count as settled.
  if scriptedClock != nil { await store.settle() }
}

if scriptedClock != nil { await store.settle() }
if let script = options.script {
  for command in script { await perform(command, line: nil) }
} else {
  if isatty(STDIN_FILENO) == 1 {
    writeError("Type a command and press Enter: help lists them, quit saves and leaves.\n")
  }
  // NB: commands wait for the file to load, as a person reading the screen would: lines piped in
  // at once found the list still loading (a ThreadSanitizer run of the tests, now and then).
  for await state in await store.states() where state.syncUps.status != .loading { break }
  let input = InputReader(maxLineBytes: Command.maxBytes)
  var number = 0
  for await line in input.lines {
    number += 1
    switch line {
    case .tooLong:
      writeError(
        "syncups: line \(number): a command may be at most \(Command.maxBytes) bytes long\n")
    case .line(let text):
      if text.trimmingCharacters(in: .whitespaces).isEmpty { break }
      do {
        await perform(try Command.parse(text), line: number)
      } catch {
        writeError("syncups: line \(number): \(error)\n")
      }
    }
    input.handled()
  }
}
// The input ended: save and leave.
await quit()
