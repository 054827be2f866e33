"""The extensions beyond the standard: logspace and fuse."""
