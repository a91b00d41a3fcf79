"""QA findings in files owned by the service helper, kept as strict expected failures.

Each test states the behaviour the spec or README asks for; the reason names the suspected fix.
"""
