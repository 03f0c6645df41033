"""Papers in scripts other than Latin, and TeX's accents and quotes (parsers/embedded: scripts.py,
bidi.py, accents.py, layout.normalize_text, reading_order's mojibake test).

A Persian paper with a good Unicode text layer was refused as set in "fonts without a Unicode
mapping": the text-layer check took every word without a Latin vowel for mojibake. Each paper
here (Persian and Hebrew, set right to left; Russian, Greek, Chinese) is written in the test as
a typesetter writes it: a Type0 font with a /ToUnicode map (tests/pdf_maker.py ``script_pdf``),
right-to-left lines drawn in visual order. It must parse, with its title, headings and
paragraphs as written, nothing lost.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.coverage import coverage
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.accents import compose
from paperpyramid.parsers.embedded.bidi import logical
from paperpyramid.parsers.embedded.layout import extract_page, normalize_text
from paperpyramid.parsers.embedded.reading_order import _mojibake
from paperpyramid.parsers.embedded.scripts import readable, unreadable_words
from tests.pdf_maker import _visual, glyph_pdf, script_pdf, tj_pdf

# (title, [(heading, paragraph), ...]): each paper about 150 words or more
PERSIAN = ("بررسی اثر تغییرات اقلیمی بر منابع آب زیرزمینی در مناطق مرکزی ایران", [
    ("چکیده", "در این پژوهش اثر تغییرات اقلیمی بر سطح آب زیرزمینی در سه دشت مرکزی ایران بررسی شده است. داده های بارش و دما در دوره سی ساله از ایستگاه های هواشناسی گردآوری شد و با خروجی مدل های گردش عمومی جو مقایسه گردید. نتایج نشان داد که کاهش بارش و افزایش دما موجب افت سطح آب در بیشتر چاه های مشاهده ای شده است."),
    ("۱ مقدمه", "منابع آب زیرزمینی در مناطق خشک و نیمه خشک نقش مهمی در تأمین آب کشاورزی و شرب دارند. در دهه های اخیر برداشت بی رویه از این منابع همراه با کاهش بارندگی باعث افت شدید سطح ایستابی شده است. پژوهشگران بسیاری تلاش کرده اند تا سهم عوامل انسانی و اقلیمی را در این افت از یکدیگر جدا کنند، اما هنوز درباره اهمیت نسبی این عوامل توافقی وجود ندارد."),
    ("۲ روش تحقیق", "برای برآورد تغذیه آبخوان از روش بیلان آب استفاده شد. ابتدا داده های ماهانه بارش، دما و تبخیر از سازمان هواشناسی کشور دریافت و کیفیت آنها با آزمون های آماری کنترل گردید. سپس خروجی مدل ها با روش ریزمقیاس نمایی آماری به مقیاس ایستگاه منتقل شد و برای پیش بینی سطح آب از یک شبکه deep neural network با داده های سال 2020 استفاده گردید."),
    ("۳ نتایج و بحث", "یافته ها نشان می دهد که میانگین دمای سالانه در همه ایستگاه ها روند افزایشی معنی داری داشته است. در مقابل، بارش سالانه در دو دشت از سه دشت مورد مطالعه کاهش یافته است. شبیه سازی ها پیش بینی می کنند که تغذیه آبخوان تا پایان قرن حاضر بین ده تا بیست و پنج درصد کاهش یابد. بنابراین مدیریت تقاضا و کنترل برداشت از چاه ها باید در اولویت برنامه ریزی منطقه ای قرار گیرد."),
])  # fmt: skip
HEBREW = ("השפעת שינויי האקלים על מגוון הציפורים הנודדות בעמק החולה", [
    ("תקציר", "מחקר זה בוחן את השינויים במספר המינים ובגודל האוכלוסיות של ציפורים נודדות בעמק החולה במהלך שלושים השנים האחרונות. נתוני הספירות נאספו מדי שנה בסתיו ובאביב על ידי צוות קבוע של צופים מתנדבים."),
    ("1 מבוא", "עמק החולה הוא אחד מנתיבי הנדידה החשובים בעולם, ומיליוני ציפורים עוברות בו בכל שנה בדרכן בין אירופה לאפריקה. ייבוש האגם בשנות החמישים ושיקום חלקי של הביצות בשנות התשעים שינו את בתי הגידול באזור באופן ניכר. עם זאת, מעט ידוע על ההשפעה המשולבת של שינויי האקלים ושל השימוש בקרקע על הרכב המינים."),
    ("2 שיטות", "השתמשנו בנתוני ספירה שיטתית מארבע תחנות תצפית קבועות. לכל מין חישבנו את מגמת האוכלוסייה בעזרת מודל רגרסיה שמביא בחשבון את מאמץ התצפית ואת מזג האוויר ביום הספירה. הניתוח נעשה בתוכנת R בגרסה 4.2 עם החבילה mgcv ובדיקות נוספות."),
    ("3 תוצאות ודיון", "מספר המינים הכולל נשאר יציב, אך הרכב המינים השתנה באופן מובהק. מינים המותאמים לאקלים חם התרבו, ואילו מינים צפוניים הופיעו בתדירות נמוכה יותר. ממצאים אלה מדגישים את הצורך בניטור ארוך טווח ובשמירה על בתי גידול לחים לאורך נתיב הנדידה."),
])  # fmt: skip
RUSSIAN = ("Влияние температуры на скорость роста бактерий в почвах арктической тундры", [
    ("Аннотация", "В работе исследовано влияние температуры на скорость роста почвенных бактерий в трёх районах арктической тундры. Образцы почвы отбирались в течение двух полевых сезонов и инкубировались при пяти температурах. Полученные кривые описаны моделью Ратковского."),
    ("1 Введение", "Почвы тундры содержат большие запасы органического углерода, который может высвобождаться при потеплении климата. Скорость разложения органического вещества во многом определяется активностью микроорганизмов. Однако реакция бактериальных сообществ на повышение температуры до сих пор изучена недостаточно, особенно в «холодных» районах."),
    ("2 Материалы и методы", "Образцы отбирали с глубины от пяти до пятнадцати сантиметров. Рост бактерий оценивали по включению меченого лейцина. Для каждой пробы строили температурную кривую и определяли минимальную температуру роста."),
    ("3 Результаты", "Скорость роста бактерий увеличивалась экспоненциально с температурой во всех образцах. Минимальная температура роста была ниже в почвах более холодных районов, что указывает на адаптацию сообществ к местным условиям. Полученные данные позволяют уточнить модели углеродного цикла в высоких широтах."),
])  # fmt: skip
GREEK = ("Η επίδραση της ξηρασίας στην παραγωγή ελαιολάδου στην Κρήτη", [
    ("Περίληψη", "Στην εργασία αυτή εξετάζουμε τη σχέση ανάμεσα στις περιόδους ξηρασίας και στην ετήσια παραγωγή ελαιολάδου στην Κρήτη. Χρησιμοποιήσαμε στοιχεία παραγωγής και μετεωρολογικά δεδομένα για την περίοδο από το 1990 έως το 2020."),
    ("1 Εισαγωγή", "Η ελαιοκαλλιέργεια αποτελεί βασικό πυλώνα της αγροτικής οικονομίας της Κρήτης. Τα τελευταία χρόνια οι παραγωγοί αναφέρουν συχνότερες και εντονότερες περιόδους ξηρασίας, οι οποίες επηρεάζουν την ανθοφορία και την καρπόδεση των δέντρων· το φαινόμενο όμως δεν έχει μετρηθεί συστηματικά."),
    ("2 Μέθοδοι", "Για κάθε έτος υπολογίσαμε έναν δείκτη ξηρασίας με βάση τη βροχόπτωση και την εξατμισοδιαπνοή. Στη συνέχεια εφαρμόσαμε γραμμικά μοντέλα για να εκτιμήσουμε την επίδραση του δείκτη στην απόδοση ανά δέντρο."),
    ("3 Αποτελέσματα", "Οι χρονιές με έντονη ξηρασία την άνοιξη συνδέθηκαν με μείωση της παραγωγής έως και τριάντα τοις εκατό. Η άρδευση μείωσε σημαντικά αυτή την απώλεια, αλλά τα διαθέσιμα αποθέματα νερού είναι περιορισμένα. Προτείνουμε την ένταξη του δείκτη ξηρασίας στα συστήματα έγκαιρης προειδοποίησης για τους παραγωγούς."),
])  # fmt: skip
CHINESE = ("基于深度学习的中文医学文本命名实体识别方法研究", [
    ("摘要", "命名实体识别是医学信息抽取的基础任务。本文提出一种结合字符特征和词典信息的深度学习模型，用于识别电子病历中的疾病、症状和药物名称。在公开数据集上的实验表明，该方法的效果优于现有的基线模型。"),
    ("1 引言", "随着医院信息化建设的发展，大量临床数据以非结构化文本的形式保存。这些文本包含丰富的医学知识，但难以被计算机直接利用。因此，如何从病历文本中准确地抽取医学实体，已经成为自然语言处理领域的重要研究问题。与英文不同，中文文本没有明显的词边界，这给实体识别带来了额外的困难。"),
    ("2 方法", "我们的模型由三个部分组成：字符表示层、上下文编码层和标签解码层。字符表示层将每个汉字映射为向量，并融合词典中匹配到的词语信息。上下文编码层采用双向长短期记忆网络，标签解码层使用条件随机场预测每个字符的标签。"),
    ("3 实验结果", "我们在两个公开的中文医学数据集上评估了模型的性能。实验结果显示，引入词典信息后，模型的精确率和召回率均有明显提高。进一步的分析表明，该方法对于较长的实体和罕见的药物名称尤其有效。"),
])  # fmt: skip
PAPERS = {
    "persian": (PERSIAN, True),
    "hebrew": (HEBREW, True),
    "russian": (RUSSIAN, False),
    "greek": (GREEK, False),
    "chinese": (CHINESE, False),
}


def _blocks(paper: tuple[str, list[tuple[str, str]]]) -> list[tuple[str, float]]:
    title, sections = paper
    return [(title, 18)] + [block for heading, text in sections for block in ((heading, 13), (text, 10))]


@pytest.fixture(scope="module", params=sorted(PAPERS))
def parsed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, Document]:
    paper, rtl = PAPERS[request.param]
    path = tmp_path_factory.mktemp("scripts") / f"{request.param}.pdf"
    path.write_bytes(script_pdf(_blocks(paper), rtl=rtl))
    return request.param, path, parse_pdf(path)


def test_a_paper_in_any_script_is_parsed_with_title_headings_and_text_as_written(parsed: tuple[str, Path, Document]) -> None:
    name, path, document = parsed
    title, sections = PAPERS[name][0]
    assert document.title == title
    # the numbered headings; an abstract's ("Аннотация", "摘要") is not asserted: the parser knows
    # the names of unnumbered headings in English only
    numbered = [heading.split(" ", 1)[1] for heading, _ in sections if heading[0].isdigit()]
    assert [section.title for section in document.sections if section.number] == numbered
    # every paragraph whole and in the order it is written: right-to-left words not reversed, a
    # Latin phrase inside a right-to-left line in its own order, Chinese lines joined without spaces
    paragraphs = [block.text for section in document.sections for block in section.blocks if len(block.text) > 40]
    assert paragraphs == [text for _, text in sections]
    assert not document.warnings
    assert coverage(path, document) == 1.0


def test_pdfium_gives_right_to_left_lines_backwards_only_as_drawn() -> None:
    """What the reading rests on: the PDF holds a right-to-left line in visual order; pdfium turns
    its right-to-left words around (logical order) but, in pdfium 8149 (pypdfium2 5.15), sets a Latin
    phrase inside it word by word backwards ("network neural deep"), which the parser avoids by
    reading the line from where its glyphs are drawn."""
    line = "در این مطالعه از شبکه deep neural network استفاده شد."
    pdf = pdfium.PdfDocument(script_pdf([(line, 10)], rtl=True))
    try:
        page = pdf[0]
        assert page.get_textpage().get_text_range().startswith("در این مطالعه از شبکه ")
        assert [item.text for item in extract_page(page, 1).lines] == [line]
    finally:
        pdf.close()


@pytest.mark.parametrize(("drawn", "written"), [
    (_visual("سلام دنیا"), "سلام دنیا"),
    (_visual("مدل BERT و سال 2020 ارائه شد."), "مدل BERT و سال 2020 ارائه شد."),
    (_visual("גרסה 2.1 של GNU Emacs שוחררה"), "גרסה 2.1 של GNU Emacs שוחררה"),
    ("Latin only, as drawn", "Latin only, as drawn"),
    ("see (" + "שלום"[::-1] + ") here", "see (שלום) here"),  # a Hebrew word in a Latin line
])  # fmt: skip
def test_a_line_drawn_left_to_right_is_stored_as_written(drawn: str, written: str) -> None:
    assert logical(drawn) == written


@pytest.mark.parametrize(("word", "ok"), [
    ("research", True), ("Wkh", False), ("ÅºÅÈ", False), ("بررسی", True), ("Введение", True), ("ξηρασίας", True),
    ("מבוא", True), ("命名实体识别", True), ("カタカナと漢字", True), ("été", True), ("aβγ", False), ("Вβ", False),
])  # fmt: skip
def test_a_word_of_any_script_is_readable_and_odd_words_are_not(word: str, ok: bool) -> None:
    assert readable(word) is ok


def test_the_text_layer_check_counts_odd_words_not_foreign_ones() -> None:
    persian = " ".join(text for _, text in PERSIAN[1])
    assert unreadable_words(persian)[0] == 0 and unreadable_words(persian)[1] > 100
    shifted = "Wkh uhvxowv vkrz wkdw wkh ghfolqh lv vwurqj lq wkh qruwk"  # a font's codes shifted off the letters
    assert unreadable_words(shifted)[0] > 0.5 * unreadable_words(shifted)[1]


@pytest.mark.parametrize(("line", "odd"), [
    ("«Холодные» районы и «тёплые»", 0), ("Ştiinţă, Știință și țară", 0), ("người được", 0), ("nǐ hǎo", 0), ("x · y = 0", 0),
    ("\x15»É»·È¹¾", 8), ("\ue123\ue124 ab", 2), ("\uf8ec\uf8ec\uf8ed", 0),
])  # fmt: skip
def test_mojibake_is_odd_code_points_not_the_letters_and_quotes_of_a_script(line: str, odd: int) -> None:
    assert _mojibake(line)[0] == odd


@pytest.mark.parametrize(("raw", "text"), [
    ("the ‘‘foreground lineage’’ is", "the “foreground lineage” is"),
    ("selection (‘‘model A’’), and", "selection (“model A”), and"),
    ("``word'' and f''(x)", "“word” and f''(x)"),
    ("``don't'' he said", "“don't” he said"),
    ("f’’(x) and y’’ = 0", "f’’(x) and y’’ = 0"),  # double primes stay
    ("Mine\u0301 and cafe\u0301", "Miné and café"),  # NFC
    ("ﺳﻼﻡ ﺩﻧﯿﺎ", "سلام دنیا"),  # Arabic presentation forms
    ("x = a’’ + ‘b’", "x = a’’ + ‘b’"),
])  # fmt: skip
def test_normalize_text(raw: str, text: str) -> None:
    assert normalize_text(raw) == text


@pytest.mark.parametrize(("letter", "accent", "composed"), [
    ("a", "\u00b4", "á"), ("\u0131", "\u00b4", "í"), ("\u0131", "\u00a8", "ï"), ("c", "\u00b8", "ç"), ("u", "\u02da", "ů"),
    ("r", "\u02c7", "ř"), ("A", "\u02da", "Å"), ("n", "\u02dc", "ñ"), ("o", "\u02dd", "ő"), ("e", "\u02db", "ę"), ("g", "\u02d8", "ğ"),
    ("a", "\u00af", "ā"), ("z", "\u02d9", "ż"), ("e", "`", "è"), ("o", "\u02c6", "ô"),
    ("k", "\u02c6", None), ("ψ", "\u02d9", None), ("1", "\u00b4", None),
])  # fmt: skip
def test_compose(letter: str, accent: str, composed: str | None) -> None:
    assert compose(letter, accent) == composed


#: Helvetica's widths (thousandths of an em) of the glyphs the accent tests draw
_WIDTHS = {
    **dict.fromkeys("ijl", 222),
    **dict.fromkeys("ft I,", 278),
    **dict.fromkeys("r-", 333),
    **dict.fromkeys("ceksvxyz", 500),
    **dict.fromkeys("abdghnopquL", 556),
    "=": 584,
    "F": 611,
    "Z": 611,
    **dict.fromkeys("KESA", 667),
    **dict.fromkeys("NUR", 722),
    "G": 778,
    "O": 778,
    "M": 833,
}
_ACCENT_WIDTH = 333


def _line(
    y: float, words: list[tuple[str, dict[int, tuple[str, str]]]], font: str = "Helvetica", x: float = 72
) -> list[tuple[float, float, float, str, str]]:
    """``words`` set at 12 points from ``x``, a space apart, with spacing accents drawn over some
    of their letters as pdfTeX draws the accents its fonts lack: {letter's index: (accent, when)},
    ``when`` being "before" (drawn just before its letter), "after" (just after), "late" (after
    the line's other glyphs, as pdfium often reports them) or "raised" (before, 2.5 points up:
    a capital's)."""
    items, late = [], []
    for word, accents in words:
        for index, letter in enumerate(word):
            width = _WIDTHS[letter] * 12 / 1000
            glyph = (x, y, 12.0, letter, font)
            if index in accents:
                accent, when = accents[index]
                mark = (x + (width - _ACCENT_WIDTH * 12 / 1000) / 2, y + (2.5 if when == "raised" else 0), 12.0, accent, "Helvetica")
                late += [mark] if when == "late" else []
                items += [glyph] if when == "late" else [glyph, mark] if when == "after" else [mark, glyph]
            else:
                items.append(glyph)
            x += width
        x += _WIDTHS[" "] * 12 / 1000
    return items + late


def test_tex_accents_join_the_letters_they_are_drawn_over() -> None:
    acute, diaeresis, cedilla, circumflex, tilde = "\xb4", "\xa8", "\xb8", "\x88", "\x98"
    items = (
        _line(
            700,
            [
                ("Muller", {1: (diaeresis, "before")}),
                ("Lourenco", {6: (cedilla, "after")}),
                ("Nunez", {1: (acute, "before"), 2: (tilde, "late")}),
            ],
        )
        + _line(670, [("Frederic", {2: (acute, "late"), 4: (acute, "before")})])
        + _line(640, [("GOMEZ", {1: (acute, "raised")})])
        # mathematics: an upright hat over an oblique y stays as set
        + _line(610, [("y", {0: (circumflex, "after")})], font="Helvetica-Oblique")
        + _line(610, [("=", {}), ("x", {})], x=82)
    )
    pdf = pdfium.PdfDocument(glyph_pdf(items))
    try:
        lines = [line.text for line in extract_page(pdf[0], 1).lines]
    finally:
        pdf.close()
    assert lines[:3] == ["Müller Lourenço Núñez", "Frédéric", "GÓMEZ"]
    assert len(lines) == 4 and "ŷ" not in lines[3] and "\u02c6" in lines[3]


def _tex_accent(accent: str, letter: str) -> list[str | float]:
    """pdfTeX's \\accent in a TJ array: a kern to centre the accent over the letter, the accent, a
    kern back to the letter's start, the letter."""
    shift = (_WIDTHS[letter] - _ACCENT_WIDTH) / 2
    return [-shift, accent, shift + _ACCENT_WIDTH, letter]


def test_tex_accents_set_with_kerns_join_their_letters() -> None:
    """pdfium reads an accent set the pdfTeX way with a space it makes up on either side ("JES ´US
    G ´OMEZ"): the spaces go with the accent."""
    acute = "\xb4"
    pdf = pdfium.PdfDocument(
        tj_pdf(
            [
                (72, 700, ["Fr", *_tex_accent(acute, "e"), "d", *_tex_accent(acute, "e"), "ric"]),
                (
                    72,
                    670,
                    ["GALLEGO, JES", *_tex_accent(acute, "U"), "S G", *_tex_accent(acute, "O"), "MEZ-RAM", *_tex_accent(acute, "I"), "REZ"],
                ),
            ]
        )
    )
    try:
        assert "G \xb4OMEZ" in pdf[0].get_textpage().get_text_range()
        assert [line.text for line in extract_page(pdf[0], 1).lines] == ["Frédéric", "GALLEGO, JESÚS GÓMEZ-RAMÍREZ"]
    finally:
        pdf.close()


def test_accents_are_composed_in_the_text_layer_coverage_reads(tmp_path: Path) -> None:
    path = tmp_path / "accents.pdf"
    path.write_bytes(glyph_pdf(_line(700, [("Frederic", {2: ("\xb4", "late"), 4: ("\xb4", "before")})])))
    document = Document(title="Frédéric", pages=1)
    assert coverage(path, document) == 1.0
