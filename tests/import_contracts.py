"""The import-linter contract type that the built-in ones lack (registered in pyproject.toml)."""

import sys

import grimp
from importlinter import Contract, ContractCheck, fields, output


class StandardLibraryOnlyContract(Contract):
    """The source packages import nothing but themselves and the standard library.

    Option ``source_modules``: the packages to check. The import graph must be built with
    ``include_external_packages = true``, so that third-party imports appear in it.
    """

    type_name = "standard_library_only"

    source_modules = fields.ListField(subfield=fields.ModuleField())

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        broken: list[str] = []
        for source in self.source_modules:
            own = {source.name, *graph.find_descendants(source.name)}
            for importer in sorted(own):
                for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                    if imported in own or imported.partition(".")[0] in sys.stdlib_module_names:
                        continue
                    for detail in graph.get_import_details(importer=importer, imported=imported):
                        broken.append(f"{importer} -> {imported} (l.{detail['line_number']})")
        return ContractCheck(kept=not broken, metadata={"broken": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for line in check.metadata["broken"]:
            output.print_error(line)
            output.new_line()
