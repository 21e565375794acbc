import DecisionsTesting
import ExampleSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// `decisions-inspect`: a flight recording of a feature this command knows, replayed through
// today's core, written as a self-contained HTML page (DecisionsTesting's `inspectorPage`).
//
// Every failure is one line on standard error and a non-zero exit: 2 for the command line, 1 for
// the recording, the page or the file written. The recording is read only up to `--max-bytes`,
// checked before it is read.

// NB: first, before anything opens a file.
let streams = StandardStreams.prepare()
let program = "decisions-inspect"

/// Writes a one-line message on standard error, and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
  let line = sanitizedForTerminal(message, keepingNewlines: false)
  do { try streams.error.write("\(program): \(line)\n") } catch { exit(status) }
  exit(status)
}

let options: Options
do {
  options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  // NB: one line, as every failure is; the usage is one `--help` away.
  fail("\(error) (see \(program) --help)", status: 2)
}
if options.help {
  do {
    try streams.output.write(Options.usage + "\n")
  } catch {
    StandardStreams.exit(reporting: error, program: program, on: [streams.error])
  }
  exit(0)
}
guard let path = options.recording, let pagePath = options.page else { exit(2) }
// NB: a page written over its own recording would lose the recording.
if pagePath != "-", resolved(pagePath) == resolved(path) {
  do {
    try streams.error.write("\(program): --out \(pagePath) is the recording itself\n")
  } catch { exit(2) }
  exit(2)
}

/// `path` made absolute, with its symbolic links resolved.
func resolved(_ path: String) -> String {
  URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
}

// MARK: - Reading the recording, no more than --max-bytes of it

let data: Data
do {
  let attributes = try FileManager.default.attributesOfItem(atPath: path)
  switch attributes[.type] as? FileAttributeType {
  case .typeRegular?: break
  case .typeDirectory?: fail("\(path) is a folder, not a recording", status: 1)
  default: fail("\(path) is not a regular file", status: 1)
  }
  let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
  if size > options.maxBytes {
    fail(
      "\(path): \(FlightRecordingError.tooLarge(bytes: size, limit: options.maxBytes))",
      status: 1)
  }
  guard let handle = FileHandle(forReadingAtPath: path) else {
    fail("cannot read \(path)", status: 1)
  }
  defer { try? handle.close() }
  // NB: one byte more than the limit, so that a file that grew since it was measured is caught.
  data = try handle.read(upToCount: options.maxBytes + 1) ?? Data()
} catch {
  let reason = (error as? CocoaError)?.code == .fileReadNoSuchFile ? "no such file" : "\(error)"
  fail("cannot read \(path): \(reason)", status: 1)
}
if data.count > options.maxBytes {
  fail(
    "\(path): \(FlightRecordingError.tooLarge(bytes: data.count, limit: options.maxBytes))",
    status: 1)
}

// MARK: - Choosing the feature, replaying and making the page

let header = try? JSONDecoder().decode(RecordingHeader.self, from: data)
let feature: KnownFeature
if let header, header.isReadable, let name = header.feature {
  guard let known = KnownFeature.all.first(where: { $0.name == name }) else {
    fail(
      "\(path) is a recording of \(excerpt(name).debugDescription), a feature this command does "
        + "not know; it knows \(KnownFeature.all.map(\.name).joined(separator: ", "))",
      status: 1)
  }
  feature = known
} else {
  // NB: not a recording this library reads: the first feature's reader says why, in its words.
  feature = KnownFeature.all[0]
}

let page: (html: String, steps: Int)
do {
  page = try feature.page(data, options.maxBytes)
} catch {
  fail("\(path): \(error)", status: 1)
}

// MARK: - Writing the page: to standard output, in place of a file, or into a device or pipe

if pagePath == "-" {
  do {
    try streams.output.write(page.html)
  } catch {
    StandardStreams.exit(reporting: error, program: program, on: [streams.error])
  }
  exit(0)
}
do {
  let type =
    try? FileManager.default.attributesOfItem(atPath: pagePath)[.type] as? FileAttributeType
  switch type {
  case nil, .typeRegular?:
    try Data(page.html.utf8).write(to: URL(fileURLWithPath: pagePath), options: .atomic)
  case .typeDirectory?:
    fail("cannot write the page to \(pagePath): it is a folder", status: 1)
  default:
    // NB: not atomically: that would rename a new file over the device or pipe.
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: pagePath))
    defer { try? handle.close() }
    try handle.write(contentsOf: Data(page.html.utf8))
  }
} catch {
  let reason = (error as NSError).localizedDescription
  fail("cannot write the page to \(pagePath): \(reason)", status: 1)
}
do {
  let steps = page.steps == 1 ? "1 step" : "\(page.steps) steps"
  try streams.output.write(
    "Wrote \(pagePath): \(steps) of \(feature.name), \(page.html.utf8.count) bytes.\n")
} catch {
  StandardStreams.exit(reporting: error, program: program, on: [streams.error])
}
