"""The one view of the information pages: the page's template in the active language."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games.info.registry import GUIDE_NAME, PAGES_BY_SLUG, current_language, in_language, page_links


@require_safe
def info_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Render the information page ``slug`` in the active language (English as fallback)."""
    page = PAGES_BY_SLUG.get(slug)
    if page is None:
        raise Http404("No such page.")
    language = current_language()
    context = {
        "page_title": page.title(language),
        "guide_name": in_language(GUIDE_NAME, language),
        "info_pages": page_links(request.path),
    }
    return render(request, page.template_names(language), context)
