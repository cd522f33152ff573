__version__ = "0.1.0"
"""This SDK's version, sent in the User-Agent. A test keeps it equal to pyproject.toml's."""
