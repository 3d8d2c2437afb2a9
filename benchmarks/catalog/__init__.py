"""Catalog and snapshot measurements on the real-page relocation benchmark's page pairs."""
