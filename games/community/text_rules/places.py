"""The address and school rules, in English, Japanese and Russian.

An address is a place with a number that finds a door: "〒150-0041", "栄3丁目", "2番地",
"203号室", "渋谷区神南1-2-3", "ул. Тверская, д. 7", "кв. 15", "индекс 630090", "221B Baker
Street", "Apt 4B", "PO Box 12", "SW1A 1AA". A school is a named one, or a class in one:
"市立第二中学校", "桜丘小学校", "3年2組", "школа № 57", "в 45 школе", "5Б класс", "Springfield
Elementary School". Words on their own pass: "after school", "小学校のころ", "в школе",
"на улице", "a street fight", "三丁目の夕日".

English names are matched on the text with its case (a school's name is capitalised); the rest
on the folded text.
"""

import re

_JA_PLACE_CHAR = r"[\u3400-\u9fffァ-ヶー々]"
_KANJI_NUMBER = r"[〇一二三四五六七八九十百]+"
_NUMBER = rf"(?:\d+|{_KANJI_NUMBER})"

# A number that counts something ("5 раз", "3 года") rather than a house or a school.
_NOT_A_COUNT = (
    r"(?!\d|\s*(?:лет|год|раз|урок|час|минут|дн|недел|месяц|класс|партий|парти|игр|человек|ход))"
)
_ADDRESS_FOLDED = re.compile(
    "|".join(
        [
            # Japanese
            r"〒\s*\d{3}\s*-?\s*\d{4}",
            r"(?:郵便番号|住所)\D{0,6}\d{3}\s*-?\s*\d{4}",
            rf"[\u3040-\u9fffァ-ヶー々]{_NUMBER}\s*丁目",
            rf"{_NUMBER}\s*丁目\s*{_NUMBER}\s*(?:番|-)",
            rf"{_NUMBER}\s*番地",
            rf"{_NUMBER}\s*番\s*{_NUMBER}\s*号",
            rf"{_NUMBER}\s*号(?:室|棟)",
            rf"(?:都|道|府|県|市|区|町|村|郡){_JA_PLACE_CHAR}*[\u3040-\u309f]{{0,3}}{_JA_PLACE_CHAR}*"
            r"\d+\s*-\s*\d+\s*-\s*\d+",
            # Russian
            r"(?<![а-я])(?:ул|просп|пр|пер|наб|бул|мкр|пл)\.\s*[а-я]",
            r"(?<![а-я])(?:пр-т|пр-д|б-р)\.?\s*[а-я]",
            # "ул Баумана, д 5", "Невский пр-т 28": the street word without its dot, a house
            r"(?<![а-я])(?:ул|пер|просп|наб|бул|мкр|пр-т|пр-д|б-р)\.?\s+[а-я][а-я-]+\s*,?\s*"
            r"(?:д\.?|дом)\s*\d+",
            r"(?<![а-я])[а-я]+(?:ий|ый|ой|ая|ое)\s+(?:пр-т|пр-д|б-р|ул|пер|просп|пр|наб|бул)\.?"
            r"\s*,?\s*(?:д\.?|дом)?\s*\d+" + _NOT_A_COUNT,
            # "мой адрес: ...", "my address is ...", "住所は..." with a number soon after
            r"(?<![а-я])(?:мой|наш|домашний)\s+адрес\w*\s*(?:[:—-]|это)?[^.!?\n]{0,30}\d+",
            r"(?<![a-z])(?:my|our|home)\s+address\s*(?::|is)?[^.!?\n]{0,30}\d+",
            r"住所\s*(?:は|:|：)[^。！？\n]{0,30}\d+",
            r"(?<![а-я])(?:улиц[аеуы]|проспект\w*|переул\w*|бульвар\w*|шоссе|набережн\w*"
            r"|площад[ьи]|микрорайон\w*)\s+[а-я-]+\s*,?\s*(?:д\.?|дом)?\s*\d+",
            r"(?<![а-я])[а-я]+(?:ой|ая|ое|ый|ий|ом|ей)\s+(?:улиц[аеуы]|проспект\w*|переул\w*|бульвар\w*"
            r"|шоссе)\s*,?\s*(?:д\.?|дом)?\s*\d+" + _NOT_A_COUNT,
            r"(?<![а-я])(?:д\.|дом)\s*\d+\s*,?\s*(?:кв\.?|квартира)\s*\d+",
            # "в доме 5 на улице Ленина": a house number, then its street
            r"(?<![а-я])(?:д\.|дом[еау]?)\s*(?:№\s*)?\d+[а-я]?\s*,?\s*(?:на|по)?\s*"
            r"(?:улиц\w*|ул\.?|проспект\w*|пр-т|переул\w*|бульвар\w*|шоссе)\s+[а-я]",
            r"(?<![а-я])(?:кв\.?|квартира|корп\.?|корпус)\s*\d+",
            r"(?<![а-я])индекс\s*\d{6}",
            # English
            r"(?<![a-z])(?:apt|apartment|suite|ste)\.?\s*#?\s*\d+[a-z]?(?![a-z])",
            r"(?<![a-z])p\.?\s*o\.?\s*box\s*\d+",
            r"(?<![a-z])(?:zip|zip code|postal code|postcode)\s*:?\s*\d{5}",
            r"(?<![a-z0-9])\d{1,5}[a-z]?\s+[a-z]+\s+(?:street|avenue|road|boulevard|lane)(?![a-z])",
            # "on Oak Street, number 12"
            r"(?<![a-z])[a-z]+\s+(?:street|avenue|road|boulevard|lane|drive)\s*,?\s*"
            r"(?:number|no\.?|#)\s*\d+",
        ]
    )
)
_ADDRESS_CASED = re.compile(
    r"(?<![\w])\d{1,5}[A-Za-z]?\s+(?:[A-Z0-9][\w']*\.?\s+){1,3}"
    r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Terrace|Highway|Parkway)"
    r"(?![\w])\.?"
    r"|postcode\s+[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}(?![\w])"
    r"|(?<![\w])[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}(?![\w])"
)

_JA_SCHOOL = r"(?:小学校|中学校|高等学校|高校|中等教育学校|義務教育学校|学園|学院|高専|幼稚園)"
_JA_GENERIC_SCHOOL_NAMES = frozenset(
    [
        "公立",
        "私立",
        "国立",
        "県立",
        "市立",
        "区立",
        "町立",
        "村立",
        "都立",
        "府立",
        "道立",
        "地元",
        "近所",
        "母校",
        "同じ",
        "別の",
        "名門",
        "進学",
        "男子",
        "女子",
        "共学",
        "有名",
        "普通",
        "工業",
        "商業",
        "農業",
        "附属",
        "付属",
        "新設",
        "近く",
        "隣",
        "元",
        "前",
        "今",
        "私",
        "僕",
        "俺",
        "都内",
        "県内",
        "市内",
        "全国",
        "各",
        "他",
        "本",
        "当",
        "小",
        "中",
        "高",
        "大",
        "同",
        "全",
        "新",
        "旧",
        "各地",
        "日本",
        "地方",
        "田舎",
        "都会",
        "うち",
    ]
)
# A school's short name and a year in it: "桜ヶ丘中の3年", "北高2年" (not "午前中の3年").
_JA_SHORT_SCHOOL = re.compile(
    rf"(?P<name>{_JA_PLACE_CHAR}{{2,}})(?:中|高|小)\s*の?\s*{_NUMBER}\s*年(?!間|前|後|ぶり|目|度)"
)
_JA_NOT_SHORT_SCHOOL_NAMES = frozenset(
    ["午前", "午後", "一日", "世界", "日本", "一年", "今年", "去年", "今日", "昨日", "明日", "一晩"]
)
_JA_NAMED_SCHOOL = re.compile(rf"(?P<name>{_JA_PLACE_CHAR}+|[\u3041-\u309f]{{2,6}}){_JA_SCHOOL}")
_SCHOOL_FOLDED = re.compile(
    "|".join(
        [
            # Japanese
            rf"(?:市|区|町|村|県|都|府|道|国|私)立{_JA_PLACE_CHAR}{{1,10}}(?:{_JA_SCHOOL}|中学|小学)",
            rf"第{_NUMBER}(?:小学校|中学校|高等学校|高校|小|中)",
            rf"{_NUMBER}\s*年\s*(?:\d+|[a-z]|{_KANJI_NUMBER}|[ぁ-んァ-ン])\s*組",
            # Russian
            r"(?<![а-я])(?:школ[аеуыой]\w*|гимнази\w*|лице[йяюе]\w*|сош|гбоу|мбоу|моу|гоу)"
            r"\s*(?:№|n|no\.?|номер)?\s*\d+" + _NOT_A_COUNT,
            r"(?<![\d-])\d+\s*-?\s*(?:я|й|ой|ая|ую|ом|ей)?\s+(?:школ[аеуыой]\w*|гимнази\w*|лице[йяюе]\w*)",
            r"(?<!\d)\d{1,2}\s*(?:-\s*[а-д]|[«\"'“„]?\s*[а-я])\s*[»\"'”]?\s*класс",
            r"(?<!\d)\d{1,2}\s*[«\"“„]\s*[а-я]\s*[»\"”]",
            r"(?<![а-я])класс\s*\d{1,2}\s*[«\"'“„-]?\s*[а-я](?![а-я])",
            # English
            r"(?<![a-z])(?:class|homeroom|form)\s+\d{1,2}[a-z](?![a-z])",
        ]
    )
)
_NOT_A_SCHOOL_NAME = (
    r"(?!(?:The|A|An|My|Our|Your|His|Her|Their|This|That|In|At|To|From|Of|And|Or|After|Before|I"
    r"|We|He|She|They|It|Every|Local|Junior|Senior|Elementary|Middle|High|Primary|Secondary"
    r"|Public|Private|Old|New|Any|Some|No|Go|Went|Attend|Attended|Finished|Love|Hate)\b)"
)
_SCHOOL_CASED = re.compile(
    rf"(?<![\w]){_NOT_A_SCHOOL_NAME}[A-Z][\w'.-]*(?:\s+{_NOT_A_SCHOOL_NAME}[A-Z][\w'.-]*){{0,2}}\s+"
    r"(?:(?:Elementary|Primary|Middle|Junior High|High|Secondary|Grammar|Prep|Preparatory"
    r"|Public|Catholic|Community)\s+School|Elementary|Primary|Academy|School)(?![\w])"
)


# "Kennedy High", "Lincoln Middle" name a school in a comment that speaks of school years.
_SHORT_SCHOOL_NAME = re.compile(
    rf"(?<![\w]){_NOT_A_SCHOOL_NAME}[A-Z][\w'.-]*(?:\s+{_NOT_A_SCHOOL_NAME}[A-Z][\w'.-]*){{0,2}}"
    r"\s+(?:High|Middle|Elementary|Elem|Junior High|Prep)(?![\w])"
)
_SCHOOL_YEAR_WORDS = re.compile(
    r"(?<![a-z])(?:grade|grader|year \d|class of|student|freshman|sophomore|junior|senior"
    r"|go to|attend\w*|homeroom)(?![a-z])"
)


def find_address(folded: str, cased: str) -> str | None:
    """The first street address, postal code or room number in the text."""
    match = _ADDRESS_FOLDED.search(folded) or _ADDRESS_CASED.search(cased)
    return match.group().strip() if match else None


def find_school(folded: str, cased: str) -> str | None:
    """The first named school or school class in the text."""
    match = _SCHOOL_FOLDED.search(folded) or _SCHOOL_CASED.search(cased)
    if match:
        return match.group().strip()
    short = _SHORT_SCHOOL_NAME.search(cased)
    if short and _SCHOOL_YEAR_WORDS.search(folded):
        return short.group().strip()
    for short in _JA_SHORT_SCHOOL.finditer(folded):
        name = short.group("name")
        if name not in _JA_GENERIC_SCHOOL_NAMES and name not in _JA_NOT_SHORT_SCHOOL_NAMES:
            return short.group()
    for named in _JA_NAMED_SCHOOL.finditer(folded):
        name = named.group("name")
        if name not in _JA_GENERIC_SCHOOL_NAMES and not name.endswith("の"):
            return named.group()
    return None
