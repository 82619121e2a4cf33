"""Figures, tables, the HTML report, dataset cards and the export: everything a maintainer
publishes about a built store. Reads the store; writes only where asked."""
