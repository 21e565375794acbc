// A structural diff of two values, built on `Mirror` alone.
//
// Output format: the first line names the type. Each difference follows as its path from the root
// (indented two spaces), then the expected value on lines marked `−` and the actual value on lines
// marked `+` (values indented four spaces). A value too long for one line is broken over several.
//
//     Parent.State
//       .rows[1].value
//     −   7
//     +   8
//       .sheet
//     −   nil
//     +   Counter.State(count: 0, messages: [])
//
// Paths use Swift syntax where there is one: `.field`, `.0` (tuple element), `[2]` (array index),
// `["key"]` (dictionary key), `?` (inside an optional). An enum case's associated value is
// `.case(label:)`, or `.case(_:)` when it is the only, unlabelled one, or `.case.1` by position.
//
// NB: the minus marker is U+2212 MINUS SIGN, as in LineDiff.swift. It is as wide as `+` in most
// fonts and cannot be mistaken for the sign of a negative number (`− -1` / `+ 1`).

/// Returns a readable diff of two values, or nil when their structure prints the same.
func structuralDiff<T>(_ expected: T, _ actual: T) -> String? {
  let old = Node(reflecting: expected)
  let new = Node(reflecting: actual)
  guard old != new else { return nil }

  var differences: [Difference] = []
  collectDifferences(old, new, at: "", into: &differences)

  let expectedType: Any.Type = type(of: expected)
  let actualType: Any.Type = type(of: actual)
  let rootType = expectedType == actualType ? expectedType : T.self
  var lines = [typeName(rootType)]
  var lastPath: String?
  for difference in differences {
    if difference.path != lastPath, !difference.path.isEmpty {
      lines.append("  " + difference.path)
    }
    lastPath = difference.path
    switch difference.change {
    case .changed(let old, let new):
      lines += marked(removedMarker, old) + marked("+", new)
    case .removed(let old):
      lines += marked(removedMarker, old)
    case .added(let new):
      lines += marked("+", new)
    case .beyondDepthLimit:
      lines.append("    (differs deeper than \(depthLimit) levels; not shown)")
    }
  }
  return lines.joined(separator: "\n")
}

// MARK: - Settings

/// How many levels deep values are compared; deeper parts are compared only by their description.
private let depthLimit = 30

/// The longest value printed on one line before it is broken over several.
private let lineWidth = 80

/// The marker of expected lines: U+2212 MINUS SIGN (see the top of this file).
private let removedMarker = "\u{2212}"

/// Returns the lines of `node`, each prefixed with `marker` and indented under the path.
private func marked(_ marker: String, _ node: Node) -> [String] {
  node.lines.map { "\(marker)   \($0)" }
}

// MARK: - Tree

/// A value reduced to what its mirror shows, so two values can be compared and printed.
enum Node: Equatable {
  /// A value shown whole: a number, a string, an enum case without payload, and so on.
  case leaf(String)
  /// A struct or a class, with its stored properties.
  case record(type: String, fields: [Field])
  /// A tuple; unlabelled elements have a nil label.
  case tuple([Field])
  /// An enum case with associated values; unlabelled values have a nil label.
  case enumCase(name: String, payload: [Field])
  /// An optional, nil or wrapping a value.
  indirect case optional(Node?)
  /// An array or another collection, in order.
  case collection([Node])
  /// A dictionary, sorted by the description of its keys.
  case dictionary([Entry])
  /// A set, sorted by the description of its elements.
  case set([Node])
  /// A value below the depth limit, kept only as its description so it can still be compared.
  case truncated(String)
}

/// A labelled part of a record, a tuple or an enum payload.
struct Field: Equatable {
  var label: String?
  var node: Node
}

/// A key and value of a dictionary; the key is kept as its description.
struct Entry: Equatable {
  var key: String
  var value: Node
}

extension Node {
  /// Reflects `value` into a node, stopping at the depth limit and at reference cycles.
  ///
  /// `ancestors` holds the class instances on the way down from the root.
  init(reflecting value: Any, depth: Int = 0, ancestors: Set<ObjectIdentifier> = []) {
    guard depth < depthLimit else {
      self = .truncated(String(reflecting: value))
      return
    }
    let mirror = Mirror(reflecting: value)
    var ancestors = ancestors
    if mirror.displayStyle == .class {
      let object = ObjectIdentifier(value as AnyObject)
      guard !ancestors.contains(object) else {
        self = .leaf("<cycle: \(typeName(mirror.subjectType))>")
        return
      }
      ancestors.insert(object)
    }
    let child = { [ancestors] (value: Any) in
      Node(reflecting: value, depth: depth + 1, ancestors: ancestors)
    }
    let fields = { (mirror: Mirror) in
      mirror.children.map { Field(label: positionless($0.label), node: child($0.value)) }
    }

    switch mirror.displayStyle {
    case .optional:
      self = .optional(mirror.children.first.map { child($0.value) })
    case .enum:
      if let payload = mirror.children.first, let name = payload.label {
        let payloadMirror = Mirror(reflecting: payload.value)
        self = .enumCase(
          name: name,
          payload: payloadMirror.displayStyle == .tuple
            ? fields(payloadMirror) : [Field(label: nil, node: child(payload.value))])
      } else {
        self = .leaf(describesItself(value) ? String(reflecting: value) : ".\(value)")
      }
    case .tuple:
      self = .tuple(fields(mirror))
    case .collection:
      self = .collection(mirror.children.map { child($0.value) })
    case .set:
      let elements = mirror.children.map { child($0.value) }.map { (text: $0.flat, node: $0) }
      self = .set(elements.sorted { $0.text < $1.text }.map(\.node))
    case .dictionary:
      let entries = mirror.children.map { element in
        // NB: each element of a dictionary's mirror is a `(key: Key, value: Value)` tuple.
        let pair = Array(Mirror(reflecting: element.value).children)
        let key = pair.first.map { child($0.value).flat } ?? "?"
        let value = pair.count == 2 ? child(pair[1].value) : .leaf("?")
        return Entry(key: key, value: value)
      }
      // NB: two keys may print the same; sorting those by value keeps the order deterministic.
      self = .dictionary(
        entries.sorted { $0.key != $1.key ? $0.key < $1.key : $0.value.flat < $1.value.flat })
    default:  // A struct, a class, or a type with a custom mirror.
      let type = mirror.subjectType
      if mirror.children.isEmpty, mirror.displayStyle == nil || describesItself(value) {
        // NB: `UUID` and friends have no children; only their description tells them apart.
        self = .leaf(String(reflecting: value))
      } else if isStandardLibraryType(type), describesItself(value) {
        // `Duration`, `Range` and the like mirror private storage but print well.
        self = .leaf(String(reflecting: value))
      } else {
        var inheritance = [mirror]
        while let superclass = inheritance[0].superclassMirror {
          inheritance.insert(superclass, at: 0)
        }
        self = .record(type: typeName(type), fields: inheritance.flatMap(fields))
      }
    }
  }
}

/// Returns nil for a positional tuple label such as `.0`, otherwise the label.
private func positionless(_ label: String?) -> String? {
  label?.first == "." ? nil : label
}

/// Returns whether `value` has its own `description` or `debugDescription`.
private func describesItself(_ value: Any) -> Bool {
  value is CustomStringConvertible || value is CustomDebugStringConvertible
}

/// Returns whether `type` is declared in the Swift standard library.
private func isStandardLibraryType(_ type: Any.Type) -> Bool {
  String(reflecting: type).hasPrefix("Swift.")
}

// MARK: - Printing

/// How a composite node prints: brackets around items, each item a prefix and a node.
private struct Layout {
  var open: String
  var items: [(prefix: String, node: Node)]
  var close: String
}

extension Node {
  /// The node on one line.
  var flat: String {
    switch self {
    case .leaf(let text):
      return text
    case .truncated:
      return "…"
    case .optional(let wrapped):
      return wrapped?.flat ?? "nil"
    case .dictionary(let entries) where entries.isEmpty:
      return "[:]"
    default:
      guard let layout else { return "" }
      let items = layout.items.map { $0.prefix + $0.node.flat }
      return layout.open + items.joined(separator: ", ") + layout.close
    }
  }

  /// The node on one line, or broken over several with one item per line when too long.
  var lines: [String] {
    if case .optional(let wrapped?) = self { return wrapped.lines }
    let flat = self.flat
    guard flat.count > lineWidth, let layout, !layout.items.isEmpty else { return [flat] }
    var result = [layout.open]
    for (index, item) in layout.items.enumerated() {
      var itemLines = item.node.lines
      itemLines[0] = item.prefix + itemLines[0]
      if index < layout.items.count - 1 { itemLines[itemLines.count - 1] += "," }
      result += itemLines.map { "  " + $0 }
    }
    result.append(layout.close)
    return result
  }

  /// The brackets and items of a composite node, or nil for a leaf.
  private var layout: Layout? {
    let labelled = { (fields: [Field]) in
      fields.map { (prefix: $0.label.map { "\($0): " } ?? "", node: $0.node) }
    }
    let unlabelled = { (nodes: [Node]) in nodes.map { (prefix: "", node: $0) } }
    switch self {
    case .record(let type, let fields):
      return Layout(open: "\(type)(", items: labelled(fields), close: ")")
    case .tuple(let fields):
      return Layout(open: "(", items: labelled(fields), close: ")")
    case .enumCase(let name, let payload):
      return Layout(open: ".\(name)(", items: labelled(payload), close: ")")
    case .collection(let elements):
      return Layout(open: "[", items: unlabelled(elements), close: "]")
    case .set(let elements):
      return Layout(open: "Set([", items: unlabelled(elements), close: "])")
    case .dictionary(let entries):
      return Layout(
        open: "[", items: entries.map { (prefix: "\($0.key): ", node: $0.value) }, close: "]")
    case .leaf, .optional, .truncated:
      return nil
    }
  }
}

/// Returns the name of `type` without module names, such as `Parent.State` or `Array<Int>`.
func typeName(_ type: Any.Type) -> String {
  // NB: private and local types print as `Module.(unknown context at $10f3c2a40).Name`, and the
  // address changes from run to run, so it is dropped to keep the output deterministic.
  let full = String(reflecting: type)
  let unknownContext = "(unknown context at "
  let isIdentifier = { (character: Character) in
    character.isLetter || character.isNumber || character == "_"
  }
  var name = ""
  var index = full.startIndex
  while index < full.endIndex {
    if full[index...].hasPrefix(unknownContext),
      let close = full[index...].firstIndex(of: ")")
    {
      index = full.index(after: close)
      if index < full.endIndex, full[index] == "." { index = full.index(after: index) }
      continue
    }
    guard isIdentifier(full[index]) else {
      name.append(full[index])
      index = full.index(after: index)
      continue
    }
    // The first identifier of a dotted path is the module name: drop it with its dot.
    let startsPath = index == full.startIndex || full[full.index(before: index)] != "."
    let end = full[index...].firstIndex { !isIdentifier($0) } ?? full.endIndex
    if startsPath, end < full.endIndex, full[end] == "." {
      index = full.index(after: end)
    } else {
      name += full[index..<end]
      index = end
    }
  }
  return name
}

// MARK: - Comparing

/// One difference between the two trees, at a path from the root.
private struct Difference {
  enum Change {
    case changed(Node, Node)
    case removed(Node)
    case added(Node)
    case beyondDepthLimit
  }

  var path: String
  var change: Change
}

/// Appends the differences between `old` and `new`, found at `path`, to `differences`.
private func collectDifferences(
  _ old: Node, _ new: Node, at path: String, into differences: inout [Difference]
) {
  guard old != new else { return }
  let labels = { (fields: [Field]) in fields.map(\.label) }
  switch (old, new) {
  case (.record(let oldType, let oldFields), .record(let newType, let newFields))
  where oldType == newType && labels(oldFields) == labels(newFields):
    for (index, (oldField, newField)) in zip(oldFields, newFields).enumerated() {
      let component = "." + (oldField.label ?? "\(index)")
      collectDifferences(oldField.node, newField.node, at: path + component, into: &differences)
    }
  case (.tuple(let oldFields), .tuple(let newFields)) where labels(oldFields) == labels(newFields):
    for (index, (oldField, newField)) in zip(oldFields, newFields).enumerated() {
      let component = "." + (oldField.label ?? "\(index)")
      collectDifferences(oldField.node, newField.node, at: path + component, into: &differences)
    }
  case (.enumCase(let oldName, let oldPayload), .enumCase(let newName, let newPayload))
  where oldName == newName && labels(oldPayload) == labels(newPayload):
    for (index, (oldField, newField)) in zip(oldPayload, newPayload).enumerated() {
      let component =
        if let label = oldField.label {
          ".\(oldName)(\(label):)"
        } else if oldPayload.count == 1 {
          ".\(oldName)(_:)"
        } else {
          ".\(oldName).\(index)"
        }
      collectDifferences(oldField.node, newField.node, at: path + component, into: &differences)
    }
  case (.optional(let oldWrapped?), .optional(let newWrapped?)):
    collectDifferences(oldWrapped, newWrapped, at: path + "?", into: &differences)
  case (.collection(let oldElements), .collection(let newElements)):
    collectElementDifferences(oldElements, newElements, at: path, into: &differences)
  case (.dictionary(let oldEntries), .dictionary(let newEntries)):
    collectEntryDifferences(oldEntries, newEntries, at: path, into: &differences)
  case (.set(let oldElements), .set(let newElements)):
    for element in multisetSubtracting(oldElements, newElements) {
      differences.append(Difference(path: path, change: .removed(element)))
    }
    for element in multisetSubtracting(newElements, oldElements) {
      differences.append(Difference(path: path, change: .added(element)))
    }
  case (.truncated, .truncated):
    differences.append(Difference(path: path, change: .beyondDepthLimit))
  default:
    differences.append(Difference(path: path, change: .changed(old, new)))
  }
}

/// Appends the differences between two arrays, element by element.
///
/// When one array is the other with a single run of elements inserted or removed, only that run is
/// reported (removed elements by their expected index, added ones by their actual index). Otherwise
/// elements are compared index by index and the extra elements of the longer array are reported.
private func collectElementDifferences(
  _ old: [Node], _ new: [Node], at path: String, into differences: inout [Difference]
) {
  let shorter = min(old.count, new.count)
  let prefix = zip(old, new).prefix { $0 == $1 }.count
  let suffix = zip(old.reversed(), new.reversed()).prefix(shorter - prefix).prefix { $0 == $1 }
    .count
  let isSingleRun = old.count != new.count && prefix + suffix == shorter
  let compared = isSingleRun ? prefix : shorter
  for index in 0..<compared {
    collectDifferences(old[index], new[index], at: path + "[\(index)]", into: &differences)
  }
  let oldEnd = isSingleRun ? old.count - suffix : old.count
  for index in compared..<oldEnd {
    differences.append(Difference(path: path + "[\(index)]", change: .removed(old[index])))
  }
  let newEnd = isSingleRun ? new.count - suffix : new.count
  for index in compared..<newEnd {
    differences.append(Difference(path: path + "[\(index)]", change: .added(new[index])))
  }
}

/// Appends the differences between two dictionaries, key by key in sorted order.
private func collectEntryDifferences(
  _ old: [Entry], _ new: [Entry], at path: String, into differences: inout [Difference]
) {
  let oldValues = Dictionary(grouping: old, by: \.key)
  let newValues = Dictionary(grouping: new, by: \.key)
  for key in Set(oldValues.keys).union(newValues.keys).sorted() {
    // NB: usually one value per key; several only when different keys print the same.
    let oldEntries = oldValues[key] ?? []
    let newEntries = newValues[key] ?? []
    let keyPath = path + "[\(key)]"
    for index in 0..<max(oldEntries.count, newEntries.count) {
      if index < oldEntries.count, index < newEntries.count {
        collectDifferences(
          oldEntries[index].value, newEntries[index].value, at: keyPath, into: &differences)
      } else if index < oldEntries.count {
        differences.append(Difference(path: keyPath, change: .removed(oldEntries[index].value)))
      } else {
        differences.append(Difference(path: keyPath, change: .added(newEntries[index].value)))
      }
    }
  }
}

/// Returns the nodes of `nodes` left after removing one equal node of `other` for each of its nodes.
private func multisetSubtracting(_ nodes: [Node], _ other: [Node]) -> [Node] {
  var counts: [String: Int] = [:]
  for node in other { counts[node.flat, default: 0] += 1 }
  return nodes.filter { node in
    guard let count = counts[node.flat], count > 0 else { return true }
    counts[node.flat] = count - 1
    return false
  }
}
