// Placeholder: the paging-snap and flow-layout cores are being written (see Docs/ExtractingCores.md).
