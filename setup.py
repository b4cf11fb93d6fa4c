"""Ship templates/ and static/ inside the wheel (as scorekeeper/templates, scorekeeper/static).

They stay at the top of the repository, where the project's layout keeps them; the app
looks for them inside the package first (an installed wheel), then beside it (a checkout,
an editable install). Everything else is in pyproject.toml.
"""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SITE_FOLDERS = ("templates", "static")


class BuildWithSite(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads them from the checkout
        package = Path(self.build_lib) / "scorekeeper"
        for name in SITE_FOLDERS:
            self.copy_tree(name, str(package / name))
        # The compiled catalogs, so an installed package never has to write into itself.
        # catalogs.py needs only Babel (a build requirement), not the package's Flask imports.
        spec = importlib.util.spec_from_file_location("_catalogs", package / "catalogs.py")
        catalogs = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(catalogs)
        catalogs.compile_catalogs(package / "translations", force=True)


setup(cmdclass={"build_py": BuildWithSite})
