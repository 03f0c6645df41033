"""Authors' places on real articles of the shared material whose layouts no rule had read: ACM
SIGPLAN's marks after the places (PLDI 2009), REVTeX's symbols that key the foot's notes (an
arXiv preprint in two columns), The American Naturalist's, and the addresses amsart prints after
the references (an arXiv preprint compiled from its source)."""

from __future__ import annotations

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded import parse_pdf
from tests.conftest import CORPUS, SHARED

RECORDED = SHARED / "recorded" / "grobid"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not here (real articles, not distributed)")
needs_recorded = pytest.mark.skipif(not RECORDED.is_dir(), reason="../shared/recorded is not here (real articles, not distributed)")


def places(document: Document) -> dict[str, str | None]:
    return {author.name: author.affiliation for author in document.authors}


@needs_corpus
def test_pldi_marks_after_the_places_give_each_author_theirs() -> None:
    # "Andreas Gal∗+, …, Mason Chang+#" over "Mozilla Corporation∗", "Adobe Corporation#", "Intel Corporation$",
    # "University of California, Irvine+", each over its braced e-mail addresses
    found = places(parse_pdf(CORPUS / "pldi-2009-tracemonkey.pdf"))
    assert found["Andreas Gal"] == "Mozilla Corporation; University of California, Irvine"
    assert found["Mohammad R. Haghighat"] == "Intel Corporation"
    assert found["Edwin Smith"] == "Adobe Corporation"
    assert found["Mason Chang"] == "University of California, Irvine; Adobe Corporation"
    assert found["Michael Franz"] == "University of California, Irvine"


@needs_corpus
def test_revtex_symbols_that_key_the_foots_notes_leave_the_address_everybodys() -> None:
    # "Ivan Rodriguez Montoya∗ †" and "Tonatiuh Matos Chassin∗ ‡" over one address; the foot: "∗Part of the …
    # collaboration", "†Electronic address: …", "‡Electronic address: …"
    document = parse_pdf(CORPUS / "arxiv-0908.0054-ultralight-bosonic-dark-matter.pdf")
    assert set(places(document).values()) == {
        "Departamento de Física, Centro de Investigación y de Estudios Avanzados del IPN, A.P. 14-740, 07000 México D.F., México."
    }


@needs_recorded
def test_the_american_naturalists_symbols_key_the_e_mail_notes() -> None:
    # "Yves Roisin* and Serge Aron†" over their address; "* Corresponding author; e-mail: …", "† E-mail: …" at the foot
    document = parse_pdf(RECORDED / "am-nat-2003-roisin-split-sex-ratios.pdf")
    place = "Behavioral and Evolutionary Ecology, Université Libre de Bruxelles, 1050 Brussels, Belgium"
    assert places(document) == {"Yves Roisin": place, "Serge Aron": place}


@needs_corpus
def test_amsarts_addresses_after_the_references_are_the_authors_in_order() -> None:
    # the three \address after the references, then the three \email: in the authors' order
    document = parse_pdf(CORPUS / "arxiv-1707.08043-amsart-commutative-algebra-compiled.pdf")
    found = list(places(document).values())
    assert found[0] == "University of Antioquia, Calle 67 # 53-108, Medellín, Colombia"
    assert found[1] is not None and found[1].startswith("Vienna University of Technology, Institute of Discrete Mathematics and Geometry")
    assert found[2] is not None and found[2].startswith("Universidad Nacional de Colombia, Escuela de Matemáticas")
