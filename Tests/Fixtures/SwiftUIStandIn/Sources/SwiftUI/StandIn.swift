// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (Not API: each declaration names the page of Apple's that it stands in for, in a plain comment.)

// A stand-in for SwiftUI, for type-checking on Linux only: it declares the signatures that
// DecisionsSwiftUI and the guides' SwiftUI recipes use, and nothing else. Nothing here runs.
//
// Each declaration names the developer.apple.com page its signature comes from. Those pages show
// the SDK that follows Xcode 26, and the stand-in follows them, with these deviations everywhere:
// - `@frozen` and `@export(implementation)` are left out: they concern Apple's binary, not how
//   code calls the symbol.
// - Bodies are stubs: `fatalError()`, or `EmptyView()` for a modifier's `some View`.
// - Primitive views (`Text`, `Button`, ...) have `Body == Never`, as SwiftUI's do; their `body`,
//   SwiftUI's business, comes from `extension View where Body == Never`, which traps.
// - Availability (`@available(iOS 16, ...)`) is left out, except where a platform lacks the symbol
//   (`@available(macOS, unavailable)`), which changes what compiles on that platform.
// Where one declaration deviates further, its comment says how and why.
//
// The fixture's manifest builds this module on Linux only; elsewhere `import SwiftUI` is Apple's.
