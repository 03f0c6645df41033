"""HTTP services (tables, Nougat, query API) as thin FastAPI layers: added by later issues."""
