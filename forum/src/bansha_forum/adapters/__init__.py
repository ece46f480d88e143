"""The forum formats bansha reads, one module each; ``base.Adapter`` says what an adapter is."""
