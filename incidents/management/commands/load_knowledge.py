"""`python manage.py load_knowledge`: seed the case library from analyzers/knowledge/cases.

Safe to run on every start: unchanged cases are left alone, changed ones updated, cases the
files dropped are removed; cases promoted from incidents are never touched. The search
index is rebuilt when asked, or when it was built by code that built it differently.
"""

from django.core.management.base import BaseCommand, CommandError

from analyzers.library.matching import CaseError
from incidents.library import search_index
from incidents.library.services import cases_load_knowledge


class Command(BaseCommand):
    help = "Create or update the seeded cases of the library from the knowledge files."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--reindex",
            action="store_true",
            help="Also rebuild the search index and typo vocabulary of every case.",
        )

    def handle(self, *args, reindex: bool = False, **options) -> None:
        try:
            result = cases_load_knowledge()
        except CaseError as error:
            raise CommandError(f"The knowledge files are invalid: {error}") from error
        self.stdout.write(
            f"Case library: {len(result.created)} created, {len(result.updated)} updated, "
            f"{result.unchanged} unchanged, {len(result.removed)} removed."
        )
        if reindex or not search_index.index_is_current():
            self.stdout.write(f"Search index rebuilt for {search_index.rebuild_index()} cases.")
        for slug in result.skipped:
            self.stderr.write(f"Skipped {slug}: a case promoted from an incident uses that id.")
