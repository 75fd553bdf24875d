"""The web side: blueprints, the session store, error pages."""
