"""Ship templates/, static/ and the documents of docs/ inside the wheel (as scorekeeper/<name>).

They stay at the top of the repository, where the project's layout keeps them; the app
looks for them inside the package first (an installed wheel), then beside it (a checkout,
an editable install). From docs/ go the API reference, the hosting guide, the OpenAPI
description (served at /api/openapi.json), the game record's JSON Schema and the deploy
examples; not the screenshots. Everything else is in pyproject.toml.
"""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SITE_FOLDERS = ("templates", "static")
DOCS = ("*.md", "*.json", "deploy/*")


class BuildWithSite(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads them from the checkout
        package = Path(self.build_lib) / "scorekeeper"
        for name in SITE_FOLDERS:
            self.copy_tree(name, str(package / name))
        for pattern in DOCS:
            for path in sorted(Path("docs").glob(pattern)):
                self.mkpath(str(package / path.parent))
                self.copy_file(str(path), str(package / path))
        # The compiled catalogs, so an installed package never has to write into itself.
        # catalogs.py needs only Babel (a build requirement), not the package's Flask imports.
        spec = importlib.util.spec_from_file_location("_catalogs", package / "catalogs.py")
        catalogs = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(catalogs)
        catalogs.compile_catalogs(package / "translations", force=True)


setup(cmdclass={"build_py": BuildWithSite})
