extension FHIRWords {
    /// A fixed phrase of a patient's record. `{name}` marks where a value goes.
    package enum Key: String, Sendable, CaseIterable {
        // The summary's own words (headings, columns, labels).
        case summaryTitle, noName, born, birthDateNotGiven, genderNotGiven, identifier, value, entry, details, written,
            dateNotGiven, by, authorNotGiven, keptBy, attestedBy, lastUpdated, alerts, alertsMessage, alert, allergyBanner,
            noAllergyInformation, pastEntries, orderCurrentFirst, orderProblems, orderImmunizations, orderResults, test,
            latestResult, referenceRange, flag, date, earlierResults, overTime, reports, report, earlierReports,
            sectionNotIncluded, noInformation, leftOut, reason, count, contacts, name, role, howToReach,
            generalPractitioner, careTeam, heartRate, beatsPerMinute, bloodPressure, bloodPressureChart, systolic, diastolic,
            bodyWeight, weight, bloodGlucose, glucose, otherResults, summaryFor, aPatient, documents, document, substance,
            medication, problem, vaccine, procedure, device, plan, observation, directive, section, unit
        // Words around values.
        case since, resolvedOn, highCriticalityMark, reaction, forReason, doseNumber, against, lot, range, results,
            oneResult, flagged, notInTheRecord, noValue, age, yes, no, fromDate, untilDate, dateRange, note, notGivenBecause,
            component, earlierValue, aboutAnotherPatient, listAnd, listSeparator, clauseSeparator
        // What an entry is called when it names nothing.
        case allergyNoName, problemNoName, medicationNoName, vaccineNoName, procedureNoName, resultNoName, reportNoName,
            deviceNoName, entryNoName
        // Doses.
        case timesOne, timesTwo, timesN, timesRange, frequency, everyFrequency, perSecond, perMinute, perHour, perDay,
            perWeek, perMonth, perYear, everySeconds, everyMinutes, everyHours, everyDays, everyWeeks, everyMonths,
            everyYears, everyRange, seconds, minutes, hours, days, weeks, months, years, oneSecond, oneMinute, oneHour,
            oneDay, oneWeek, oneMonth, oneYear, forDuration, doseCount, doseCountRange, eachDoseOver, onDays, atTimes,
            minutesBefore, minutesAfter, asNeeded, asNeededFor, atMost, atMostPerDose, atMostInALifetime, ratePerPeriod,
            ratio, atRate, patientInstruction, codedAs, on
    }
}
