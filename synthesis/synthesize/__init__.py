"""Synthesizers: the protocol, the bounded context, Claude and the offline extractive synthesizer."""
