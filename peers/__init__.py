"""Peer libraries' own test suites run against xpgpu (see _common.py); not part of xpgpu."""
