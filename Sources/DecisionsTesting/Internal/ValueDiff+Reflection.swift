// Reflection: a value reduced to a tree of `Node`s with `Mirror` alone, so that two values can be
// compared (ValueDiff+Comparing.swift) and printed (ValueDiff+Rendering.swift). The entry point,
// `structuralDiff`, and the output format are described in ValueDiff.swift.

import Foundation

/// How many levels deep values are compared; deeper parts are compared only by their description.
let depthLimit = 30

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
    // NB: a `Duration` describes itself as "1.0 seconds", which is not Swift: printed stories
    // (a `CoreTest`, a `StoreTest` from an exploration) must compile as printed.
    if let duration = value as? Duration {
      self = .leaf(swiftCode(duration))
      return
    }
    // NB: a URL, an id and a date describe themselves in text that is not Swift either.
    if let code = foundationCode(value) {
      self = .leaf(code)
      return
    }
    // NB: an id holds its value in an object it shares with its copies: shown whole, by its
    // value, as it is made (a field without a label would read `.0` in a diff's path), with the
    // instances above it, so that a cycle through it shows as one.
    // NB: the type compared first: a cast would see an id inside an optional or an `AnyHashable`,
    // whose own shape (`?` in a path) then went unshown.
    if type(of: value) == WorkID.self, let id = value as? WorkID {
      let base = Node(reflecting: id.base, depth: depth + 1, ancestors: ancestors)
      self = .leaf("WorkID(\(base.flat))")
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
      mirror.children.map {
        Field(label: shown(positionless($0.label), $0.value), node: child($0.value))
      }
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

/// A `URL`, a `UUID` or a `Date` as the Swift that makes it; nil for any other value.
private func foundationCode(_ value: Any) -> String? {
  switch value {
  case let url as URL where type(of: value) == URL.self:
    swiftCode(url)
  case let id as UUID where type(of: value) == UUID.self:
    "UUID(uuidString: \"\(id.uuidString)\")!"
  case let date as Date where type(of: value) == Date.self:
    "Date(timeIntervalSinceReferenceDate: \(swiftCode(date.timeIntervalSinceReferenceDate)))"
  default:
    nil
  }
}

// NB: a URL is equal to another only with the same relative text and base: one made relative to
// a folder (`URL(fileURLWithPath: "notes.json")`) is written with its base.
/// A URL as the Swift that makes an equal one.
private func swiftCode(_ url: URL) -> String {
  guard let base = url.baseURL else {
    return "URL(string: \(String(reflecting: url.relativeString)))!"
  }
  return "URL(string: \(String(reflecting: url.relativeString)), relativeTo: \(swiftCode(base)))!"
}

/// A number as Swift: `.infinity` and `.nan` by name, which `\(value)` writes as `inf` and `nan`.
private func swiftCode(_ value: Double) -> String {
  if value.isNaN { return ".nan" }
  if value.isInfinite { return value < 0 ? "-.infinity" : ".infinity" }
  return "\(value)"
}

/// The label of a property wrapper's storage (`_sheet` of `@Presented var sheet`) as the
/// property's own name, which the type's initializer and the code use; any other label as it is.
private func shown(_ label: String?, _ value: Any) -> String? {
  guard let label, label.first == "_", value is any WrapperStorage else { return label }
  return String(label.dropFirst())
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
