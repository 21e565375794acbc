@_exported import Decisions
