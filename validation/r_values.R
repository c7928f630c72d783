# The R side of the validation (validation/run.py runs it; CI has no R and reads its output).
#
#   Rscript validation/r_values.R validation/results/labels.csv validation/results/r_values.csv
#
# Reads the label pairs (one row per object: case, kind, x, y; labels 1..K) and writes one row
# per case and R function: case, func, value (17 significant digits; NA where R gives NaN or
# an error). The versions of R and of each package go to r_versions.csv beside the output.
# Which index of clusteragree each function corresponds to: validation/comparisons.py.

args <- commandArgs(trailingOnly = TRUE)
labels_csv <- if (length(args) >= 1) args[1] else "validation/results/labels.csv"
out_csv <- if (length(args) >= 2) args[2] else "validation/results/r_values.csv"

suppressPackageStartupMessages({
  library(mclust)
  library(fpc)
  library(clue)
  library(dendextend)
})

labels <- read.csv(labels_csv)
safe <- function(expr) {
  v <- tryCatch(suppressWarnings(as.numeric(expr)), error = function(e) NA_real_)
  if (length(v) != 1 || is.nan(v)) NA_real_ else v
}

rows <- list()
for (case in sort(unique(labels$case))) {
  d <- labels[labels$case == case, ]
  x <- d$x
  y <- d$y
  px <- as.cl_partition(x)
  py <- as.cl_partition(y)
  st <- tryCatch(fpc::cluster.stats(NULL, x, y, compareonly = TRUE),
                 error = function(e) list(corrected.rand = NA, vi = NA))
  fm <- tryCatch(suppressWarnings(dendextend::FM_index(x, y, warn = FALSE)),
                 error = function(e) structure(NA, E_FM = NA, V_FM = NA))
  values <- c(
    "mclust::adjustedRandIndex" = safe(mclust::adjustedRandIndex(x, y)),
    "fpc::cluster.stats corrected.rand" = safe(st$corrected.rand),
    "fpc::cluster.stats vi" = safe(st$vi),
    "clue::cl_agreement Rand" = safe(cl_agreement(px, py, method = "Rand")),
    "clue::cl_agreement cRand" = safe(cl_agreement(px, py, method = "cRand")),
    "clue::cl_agreement NMI" = safe(cl_agreement(px, py, method = "NMI")),
    "clue::cl_agreement FM" = safe(cl_agreement(px, py, method = "FM")),
    "clue::cl_agreement Jaccard" = safe(cl_agreement(px, py, method = "Jaccard")),
    "clue::cl_agreement purity" = safe(cl_agreement(px, py, method = "purity")),
    "clue::cl_agreement diag" = safe(cl_agreement(px, py, method = "diag")),
    "clue::cl_dissimilarity VI" = safe(cl_dissimilarity(px, py, method = "VI")),
    "clue::cl_dissimilarity symdiff" = safe(cl_dissimilarity(px, py, method = "symdiff")),
    "dendextend::FM_index" = safe(fm),
    "dendextend::FM_index E_FM" = safe(attr(fm, "E_FM")),
    "dendextend::FM_index V_FM" = safe(attr(fm, "V_FM"))
  )
  rows[[length(rows) + 1]] <- data.frame(
    case = case, func = names(values),
    value = ifelse(is.na(values), NA, sprintf("%.17g", values)))
}
write.csv(do.call(rbind, rows), out_csv, row.names = FALSE, na = "NA")

pkgs <- c("mclust", "fpc", "clue", "dendextend")
versions <- data.frame(
  package = c("R", pkgs),
  version = c(paste(R.version$major, R.version$minor, sep = "."),
              vapply(pkgs, function(p) as.character(packageVersion(p)), "")))
write.csv(versions, file.path(dirname(out_csv), "r_versions.csv"), row.names = FALSE)
