"""The words of the generated papers: a topic's row labels, measures and groups, and prose.

Topics are split like the seeds (see :mod:`benchmarks.synthetic`): the development
papers write about ecology, machine learning and materials, the held-out papers about
clinical trials, economics and astronomy, so a held-out table has words the engine's
developers never saw in a development table. Prose is made from sentence patterns filled
with the topic's words; every sentence ends with a full stop.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["Measure", "Topic", "TOPICS", "paragraph", "sentence", "title"]


@dataclass(frozen=True)
class Measure:
    """A numeric column: its header, unit, value range and decimals."""

    name: str
    unit: str
    low: float
    high: float
    decimals: int


@dataclass(frozen=True)
class Topic:
    name: str
    subjects: tuple[str, ...]  # what is studied, plural ("seedlings")
    methods: tuple[str, ...]  # how ("a mixed-effects model")
    row_labels: tuple[str, ...]  # a table's stub entries
    stub_heads: tuple[str, ...]  # the stub's header ("Site")
    measures: tuple[Measure, ...]
    groups: tuple[tuple[str, ...], ...]  # spanning headers over column groups
    descriptions: tuple[str, ...]  # long text cells
    text_heads: tuple[str, ...]  # header of a column of long text
    captions: tuple[str, ...]  # caption sentences


# fmt: off
TOPICS: dict[str, Topic] = {
    "ecology": Topic(
        "ecology",
        ("seedlings", "plots", "pollinator visits", "soil cores", "transects", "bird counts", "nesting sites", "leaf samples"),
        ("a mixed-effects model", "rarefaction curves", "a generalised additive model", "paired t-tests", "occupancy modelling"),
        ("Oak woodland", "Grassland", "Riparian strip", "Pine plantation", "Heathland", "Wet meadow", "Scrub edge", "Salt marsh",
         "Upland bog", "Hedgerow", "Limestone pavement", "Beech forest", "Fallow field", "Dune slack", "Alder carr"),
        ("Site", "Habitat", "Species", "Plot type"),
        (Measure("Richness", "", 3, 60, 0), Measure("Cover", "%", 0, 100, 1), Measure("Biomass", "g m-2", 10, 900, 1),
         Measure("pH", "", 3.5, 8.5, 2), Measure("Shannon H", "", 0.2, 3.9, 2), Measure("Density", "ha-1", 5, 400, 0),
         Measure("Canopy", "m", 1, 35, 1), Measure("Moisture", "%", 5, 60, 1), Measure("Nitrogen", "mg kg-1", 0.1, 9, 2)),
        (("Spring", "Summer", "Autumn"), ("Control", "Grazed"), ("Before", "After"), ("Native", "Introduced")),
        ("dominated by tall grasses with scattered shrubs", "flooded for several weeks each winter",
         "grazed by cattle at low density since 1990", "recently cleared and left to regenerate", "mown twice a year by hand"),
        ("Description", "Management", "Notes"),
        ("Species richness and cover in the sampled habitats", "Soil properties of the study plots in the two survey years",
         "Mean biomass by habitat and season", "Diversity indices for each transect", "Results of the occupancy models for the common species"),
    ),
    "learning": Topic(
        "learning",
        ("models", "classifiers", "training runs", "test sentences", "annotated images", "benchmark tasks", "prompts", "embeddings"),
        ("five-fold cross-validation", "early stopping", "a held-out validation set", "bootstrap resampling", "grid search"),
        ("Baseline", "Logistic regression", "Random forest", "BiLSTM", "Transformer", "Ours", "Ours (no pretraining)",
         "Gradient boosting", "k-NN", "SVM (linear)", "CNN", "Ours + augmentation", "Distilled model", "Zero-shot", "Fine-tuned"),
        ("Model", "Method", "System", "Configuration"),
        (Measure("Accuracy", "%", 50, 99, 1), Measure("F1", "", 0.3, 0.98, 3), Measure("Precision", "", 0.3, 0.99, 2),
         Measure("Recall", "", 0.3, 0.99, 2), Measure("Params", "M", 1, 900, 0), Measure("Latency", "ms", 2, 400, 1),
         Measure("BLEU", "", 10, 45, 1), Measure("AUC", "", 0.5, 0.99, 3), Measure("Loss", "", 0.05, 2.5, 3)),
        (("Validation", "Test"), ("English", "German", "French"), ("Small", "Large"), ("In-domain", "Out-of-domain")),
        ("trained from scratch on the full corpus", "initialised from the public checkpoint and frozen",
         "uses character n-grams as additional features", "ensemble of three runs with different seeds",
         "pruned to half of its attention heads"),
        ("Description", "Setting", "Remarks"),
        ("Results on the test set averaged over five runs", "Accuracy of each model on the validation and test splits",
         "Ablation of the main components", "Inference cost of the compared systems", "Scores per language pair"),
    ),
    "materials": Topic(
        "materials",
        ("specimens", "thin films", "alloy samples", "coatings", "composites", "crystals", "welds", "fibres"),
        ("X-ray diffraction", "nanoindentation", "tensile testing", "differential scanning calorimetry", "impedance spectroscopy"),
        ("Sample A", "Sample B", "Al-6061", "Ti-6Al-4V", "PMMA", "Epoxy/CF", "ZnO film", "SiC", "Annealed", "As-cast",
         "Quenched", "Coated", "Uncoated", "Batch 3", "Reference"),
        ("Sample", "Material", "Specimen", "Treatment"),
        (Measure("Hardness", "GPa", 0.5, 30, 2), Measure("Modulus", "GPa", 2, 420, 1), Measure("Strength", "MPa", 20, 1500, 0),
         Measure("Strain", "%", 0.5, 45, 1), Measure("Tg", "C", 40, 380, 1), Measure("Density", "g cm-3", 0.9, 8.9, 3),
         Measure("Grain size", "um", 0.1, 80, 2), Measure("Resistivity", "ohm cm", 0.01, 99, 2), Measure("Thickness", "nm", 5, 900, 0)),
        (("Longitudinal", "Transverse"), ("25 C", "200 C"), ("Dry", "Wet"), ("Before ageing", "After ageing")),
        ("polished to a mirror finish before testing", "heat treated at 500 C for two hours",
         "cut perpendicular to the rolling direction", "deposited by sputtering at room temperature", "cured under vacuum overnight"),
        ("Preparation", "Processing", "Comment"),
        ("Mechanical properties of the tested specimens", "Thermal properties of the composites",
         "Film thickness and resistivity after annealing", "Tensile results in the two directions", "Composition and density of the alloys"),
    ),
    "clinical": Topic(
        "clinical",
        ("patients", "participants", "hospital admissions", "blood samples", "follow-up visits", "adverse events", "clinics", "cohorts"),
        ("a Cox proportional hazards model", "multiple imputation", "an intention-to-treat analysis", "logistic regression", "propensity matching"),
        ("Age, years", "Female sex", "Body mass index", "Current smoker", "Diabetes", "Hypertension", "Systolic pressure",
         "Total cholesterol", "eGFR", "Prior stroke", "Statin use", "Heart rate", "HbA1c", "Creatinine", "LDL cholesterol"),
        ("Characteristic", "Variable", "Outcome", "Subgroup"),
        (Measure("Mean", "", 10, 180, 1), Measure("SD", "", 0.5, 30, 1), Measure("Median", "", 5, 160, 0), Measure("HR", "", 0.4, 3.5, 2),
         Measure("OR", "", 0.3, 4.2, 2), Measure("n", "", 12, 4000, 0), Measure("Rate", "per 1000", 0.5, 90, 1),
         Measure("Risk", "%", 0.5, 60, 1), Measure("Dose", "mg", 5, 500, 0)),
        (("Treatment", "Placebo"), ("Men", "Women"), ("Baseline", "Week 12", "Week 24"), ("Cases", "Controls")),
        ("assessed by a blinded clinician at each visit", "defined by the 2017 guideline thresholds",
         "self-reported in the baseline questionnaire", "measured after an overnight fast", "confirmed by two independent readers"),
        ("Definition", "Assessment", "Criteria"),
        ("Baseline characteristics of the participants", "Adverse events by treatment group", "Hazard ratios for the primary outcome",
         "Laboratory values at baseline and follow-up", "Outcomes in the prespecified subgroups"),
    ),
    "economics": Topic(
        "economics",
        ("households", "firms", "regions", "loan contracts", "survey rounds", "export flows", "municipalities", "auctions"),
        ("fixed-effects regression", "a difference-in-differences design", "instrumental variables", "quantile regression", "a gravity model"),
        ("Agriculture", "Manufacturing", "Construction", "Retail", "Finance", "Public sector", "North", "South", "Urban", "Rural",
         "Low income", "High income", "Exporters", "Non-exporters", "All firms"),
        ("Sector", "Region", "Group", "Specification"),
        (Measure("Wage", "USD", 200, 4000, 0), Measure("Growth", "%", -4, 12, 2), Measure("Share", "%", 0, 100, 1),
         Measure("Coef.", "", -2, 2, 3), Measure("SE", "", 0.001, 0.5, 3), Measure("Obs.", "", 150, 90000, 0),
         Measure("Gini", "", 0.2, 0.65, 3), Measure("Output", "bn", 1, 950, 1), Measure("Elasticity", "", -1.5, 1.5, 2)),
        (("OLS", "IV"), ("2005", "2010", "2015"), ("Pre-reform", "Post-reform"), ("Domestic", "Foreign")),
        ("includes region and year fixed effects", "excludes firms with fewer than ten employees",
         "weighted by the survey's sampling weights", "restricted to the balanced panel", "clusters standard errors by district"),
        ("Specification", "Sample", "Controls"),
        ("Summary statistics of the household panel", "Effect of the reform on wages by sector", "First-stage and reduced-form estimates",
         "Export growth by destination region", "Robustness checks with alternative samples"),
    ),
    "astronomy": Topic(
        "astronomy",
        ("galaxies", "light curves", "spectra", "exposures", "candidate planets", "star clusters", "radio sources", "transits"),
        ("aperture photometry", "Markov chain Monte Carlo fitting", "cross-matching with the archive", "spectral energy fitting", "a periodogram search"),
        ("NGC 1300", "NGC 4565", "M 87", "Kepler-22", "HD 209458", "WASP-12", "Vega", "Sirius B", "Field 1", "Field 2",
         "Cluster core", "Halo", "Source 14", "Target 7", "Comparison star"),
        ("Object", "Target", "Field", "Source"),
        (Measure("Redshift", "", 0.001, 3.5, 4), Measure("Mass", "Msun", 0.1, 40, 2), Measure("Period", "d", 0.5, 400, 3),
         Measure("Magnitude", "mag", 5, 24, 2), Measure("Radius", "Rjup", 0.2, 2.1, 2), Measure("Flux", "mJy", 0.01, 900, 2),
         Measure("Distance", "pc", 2, 9000, 0), Measure("Teff", "K", 2800, 12000, 0), Measure("Velocity", "km s-1", -300, 300, 1)),
        (("Photometry", "Spectroscopy"), ("g band", "r band", "i band"), ("Night 1", "Night 2"), ("Primary", "Secondary")),
        ("observed through thin cirrus on the second night", "blended with a fainter neighbour in the aperture",
         "reduced with the standard pipeline and flat fielded", "excluded from the fit because of saturation", "confirmed by radial velocity follow-up"),
        ("Remarks", "Observing notes", "Quality"),
        ("Properties of the observed targets", "Fitted parameters of the transiting planets", "Photometry of the cluster members",
         "Log of the spectroscopic observations", "Derived masses and distances"),
    ),
}
# fmt: on

_PATTERNS = (
    "We studied {n} {subjects} over {years} years using {method}.",
    "The {subjects} were grouped by {stub} before any of the {measure} values were compared.",
    "As expected, {measure} differed between the groups, although the difference was small in {row}.",
    "Previous work {cite} reported similar values for {row}, but with a smaller sample.",
    "All analyses were repeated with {method2}, which gave the same conclusions.",
    "In contrast to earlier reports, we found no clear trend in {measure} across the {subjects}.",
    "The largest change was observed for {row}, where {measure} rose by about {pct} percent.",
    "Missing values were rare and were handled by {method2}.",
    "Table {table} summarises the main results, and the full data are available on request.",
    "These results suggest that {measure} is a useful indicator for {subjects} of this kind.",
    "Because the {subjects} were not chosen at random, the estimates should be read with care.",
    "We report means with their standard deviations unless stated otherwise.",
    "The {subjects} in {row} were examined twice, once at the start and once at the end of the study.",
    "Our approach differs from {cite} mainly in the way {measure} is defined.",
    "A sensitivity analysis that excluded {row} changed the estimates by less than {pct} percent.",
    "Further work is needed to confirm these findings in a larger set of {subjects}.",
    "Each of the {n} {subjects} was measured by two observers who did not know the group.",
    "The results in Table {table} show that {row} differs most clearly from the rest.",
    "Figure {figure} shows how {measure} changes over the course of the study.",
    "We did not correct for multiple comparisons, since the tests were planned in advance.",
    "This pattern was consistent across the {subjects} and did not depend on {stub}.",
    "Overall, the agreement between the two methods was good, with a mean difference of {small}.",
    "Two of the {subjects} were lost during the study and were left out of every analysis.",
    "The protocol was approved in advance, and the analysis plan was registered before the data were collected.",
    "For {row}, the estimate was less precise, mostly because fewer {subjects} were available.",
    "When {stub} was added to the model, the effect of {measure} became somewhat weaker but did not disappear.",
    "We chose {method} because it copes well with unbalanced groups and with repeated measurements.",
    "It is worth noting that {measure} was recorded by the same team throughout, which limits drift between seasons.",
    "Unlike {cite}, we kept the outlying {subjects} in the main analysis and report the effect of removing them separately.",
    "The code and the processed data will be released with the final version of this paper.",
    "Details of {method} are given in the supplementary material, together with the full list of {subjects}.",
    "Some of the variation in {measure} is probably due to differences in how the {subjects} were sampled.",
    "A simple check with {method2} confirmed that the main result does not depend on this choice.",
    "In the remainder of this section we describe the {subjects}, the measurements and the statistical analysis in turn.",
    "Values for {row} are shown in Table {table} next to those of the other groups.",
    "Taken together, the evidence points to {stub} as the main source of differences in {measure}.",
)

_TITLES = (
    "{Measure} in {subjects}: evidence from {method}",
    "A study of {measure} across {n} {subjects}",
    "How {stub} shapes {measure} in {subjects}",
    "Revisiting {measure} with {method}",
)


def _fill(pattern: str, topic: Topic, rng: random.Random, table: str, figure: str) -> str:
    measure = rng.choice(topic.measures).name
    values = {
        "n": str(rng.randint(12, 480)),
        "years": str(rng.randint(2, 12)),
        "subjects": rng.choice(topic.subjects),
        "method": rng.choice(topic.methods),
        "method2": rng.choice(topic.methods),
        "stub": rng.choice(topic.stub_heads).lower(),
        "measure": measure if measure.isupper() or measure[1:2].isupper() else measure.lower(),
        "Measure": measure,
        "row": rng.choice(topic.row_labels),
        "cite": f"[{rng.randint(1, 40)}]",
        "pct": str(rng.randint(2, 40)),
        "small": f"{rng.uniform(0.01, 0.9):.2f}",
        "table": table,
        "figure": figure,
    }
    return pattern.format(**values)


def sentence(topic: Topic, rng: random.Random, *, table: str = "1", figure: str = "1", mentions: bool = True) -> str:
    """One prose sentence about ``topic``; ``mentions`` allows sentences that name a table or figure."""
    patterns = [p for p in _PATTERNS if mentions or ("{table}" not in p and "{figure}" not in p)]
    return _fill(rng.choice(patterns), topic, rng, table, figure)


def paragraph(topic: Topic, rng: random.Random, *, table: str = "1", figure: str = "1", mentions: bool = True) -> str:
    """A paragraph of three to seven sentences."""
    return " ".join(sentence(topic, rng, table=table, figure=figure, mentions=mentions) for _ in range(rng.randint(3, 7)))


def title(topic: Topic, rng: random.Random) -> str:
    text = _fill(rng.choice(_TITLES), topic, rng, "1", "1")
    return text[0].upper() + text[1:] if text[1:2].islower() else text  # "pH", "F1" stay as they are
