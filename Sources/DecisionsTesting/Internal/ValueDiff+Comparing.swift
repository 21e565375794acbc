// Comparing: the differences between two trees of `Node`s, each at a path from the root.

/// One difference between the two trees, at a path from the root.
struct Difference {
  enum Change {
    case changed(Node, Node)
    case removed(Node)
    case added(Node)
    case beyondDepthLimit
  }

  var path: String
  var change: Change
}

/// Returns the differences between `old` and `new`, in the order of the tree.
func differences(between old: Node, and new: Node) -> [Difference] {
  var differences: [Difference] = []
  collectDifferences(old, new, at: "", into: &differences)
  return differences
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
