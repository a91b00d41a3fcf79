"""Django admin of the community models."""
